#!/bin/sh
# cargo's RUSTC_WRAPPER for the fuzz builds (docs/RELIABILITY.md): coverage instrumentation
# for this repository's crates only. The flags cargo-fuzz adds are dropped for every other
# crate: miette, textwrap, serde and the rest still run, but their comparison tracing and
# coverage counters cost most of each execution, and their coverage is not what is searched.
# The command's crate (renderers, diffs, the servers' glue) and the harness keep their coverage
# counters but not comparison tracing: what they compare is output (buffer room, widths,
# escapes), never the input's words, which the parser and rules of iparams-core and the
# sandbox's request handling compare, and which tracing is there to teach the fuzzer.
# IPARAMS_FUZZ_TRACE_COMMAND=1 traces the command's crate too, for the targets whose input it
# reads itself (`positions`, `lsp`); build those into their own --target-dir, as cargo does not
# rebuild a crate when only its wrapper's choice changes.
repository=$(cd "$(dirname "$0")/.." && pwd)
if [ "${IPARAMS_FUZZ_TRACE_COMMAND:-}" = 1 ] && [ "$CARGO_MANIFEST_DIR" = "$repository"/crates/iparams-lint ]; then
    exec "$@"
fi
# Whether the crate keeps its coverage counters once comparison tracing is dropped.
case "$CARGO_MANIFEST_DIR" in
"$repository"/crates/iparams-lint | "$repository"/fuzz) counters=yes ;;
"$repository" | "$repository"/*) exec "$@" ;;
*) counters=no ;;
esac
for argument do
    shift
    case $argument in
    -Cllvm-args=-sanitizer-coverage-trace-compares) ;;
    -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage-*)
        [ "$counters" = yes ] && set -- "$@" "$argument" ;;
    *) set -- "$@" "$argument" ;;
    esac
done
exec "$@"
