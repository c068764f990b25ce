#!/bin/sh
# cargo's RUSTC_WRAPPER for the fuzz builds (docs/RELIABILITY.md): coverage instrumentation
# for this repository's crates only. The flags cargo-fuzz adds are dropped for every other
# crate: miette, textwrap, serde and the rest still run, but their comparison tracing and
# coverage counters cost most of each execution, and their coverage is not what is searched.
repository=$(cd "$(dirname "$0")/.." && pwd)
case "$CARGO_MANIFEST_DIR" in
"$repository" | "$repository"/*) exec "$@" ;;
esac
for argument do
    shift
    case $argument in
    -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage-*) ;;
    *) set -- "$@" "$argument" ;;
    esac
done
exec "$@"
