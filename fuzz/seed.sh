#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds: the repository's JSON fixtures and, when it is beside
# the repository, the real-app corpus (other people's files: copied at run time, never
# committed; fuzz/corpus is git-ignored). Existing corpus entries are kept.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$fuzz")"
real="${IPARAMS_REAL_CORPUS:-$repo/../shared/corpus/real}"

seed() { # target, files...
    local target="$1"
    shift
    mkdir -p "$fuzz/corpus/$target"
    for file in "$@"; do
        # Named by content, as libFuzzer names what it adds: no duplicates, no clashes.
        cp "$file" "$fuzz/corpus/$target/$(sha1sum <"$file" | cut -c1-40)"
    done
}

# Not the catastrophic-regex fixtures: a match abandoned after its timeout runs on until the
# process ends, and a fuzzer's process lives long (docs/RELIABILITY.md).
skip=(-not -path '*/regex-timeout/*' -not -path '*/value-regex-timeout/*')
mapfile -t fixtures < <(find "$repo/fixtures" -name '*.json' -type f "${skip[@]}" | sort)
real_files=()
if [ -d "$real" ]; then
    mapfile -t real_files < <(find "$real" -maxdepth 1 -name '*.json' -type f | sort)
else
    echo "note: $real is not here; seeding from the fixtures only" >&2
fi
mapfile -t values < <(find "$repo/fixtures/values" -name '*.json' ! -name 'iparams*.json' -type f "${skip[@]}" | sort)

seed lint "${fixtures[@]}" "${real_files[@]}"
seed fix "${fixtures[@]}" "${real_files[@]}"
seed values "${values[@]}"
for target in lint fix values; do
    echo "$target: $(find "$fuzz/corpus/$target" -type f | wc -l) inputs"
done
