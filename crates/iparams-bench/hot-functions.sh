#!/usr/bin/env bash
# Writes crates/iparams-lint/hot-functions.txt: the functions of the executable that a release
# build runs to check the bench corpora (typical, many, large and broken, in the default format
# and in JSON) and the example app, by their names in it. build.rs has rust-lld link them next to
# each other, in this order; see docs/BENCHMARKS.md for what that saves.
#
# Run it again when the functions on the check path change much (names a build no longer has
# are passed over: a stale list costs memory, not correctness). Needs valgrind, Python 3, and
# the corpus crates/iparams-bench/compare.sh makes in target/bench-corpus.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$root/target/bench-corpus
list=$root/crates/iparams-lint/hot-functions.txt
[ -f "$corpus/large.json" ] || { echo "no bench corpus: run compare.sh first" >&2; exit 1; }

# The release build itself: another profile (even one that only keeps the symbol table) gives
# its crates other hashes, and so its functions other names.
cargo build --release -p iparams-lint
lint=$root/target/release/iparams-lint

profiles=$(mktemp -d)
trap 'rm -rf "$profiles"' EXIT
run() {
    local name=$1
    shift
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$profiles/$name" \
        "$lint" "$@" >/dev/null 2>&1 || true
}
cd "$corpus"
run typical typical/iparams.json
run many many/*.json
run many-json --format json many/*.json
run large large.json
run broken broken.json
run app "$root/fixtures/apps/hr-sync"

# Every function a run entered, as callgrind names it, that the executable defines.
nm --defined-only "$lint" | awk '{print $3}' | sort -u >"$profiles/defined"
sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$profiles"/typical "$profiles"/many "$profiles"/many-json \
    "$profiles"/large "$profiles"/broken "$profiles"/app | sort -u |
    comm -12 - "$profiles/defined" >"$list"
echo "$(wc -l <"$list") functions in $list" >&2
