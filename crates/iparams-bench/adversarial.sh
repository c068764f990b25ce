#!/usr/bin/env bash
# How long, and in how much memory, the release binary takes on the hostile inputs of
# tests/adversarial.rs at full size (the tests check the outcome on the smallest input that
# crosses each limit; this measures the huge ones, as no test may time). Inputs named values-*
# are values files, checked with `iparams-lint values` against the definitions of the tests.
# Prints a Markdown table; the figures in docs/RELIABILITY.md come from it.
#
#   crates/iparams-bench/adversarial.sh
#
# Needs python3 and /usr/bin/time (Debian package `time`). RUNS (default 3) runs per input;
# the table shows the slowest.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
target=${CARGO_TARGET_DIR:-$root/target}
work=$target/adversarial
runs=${RUNS:-3}

cargo build --quiet --release -p iparams-lint --manifest-path "$root/Cargo.toml"
lint=$target/release/iparams-lint
rm -rf "$work"
mkdir -p "$work/definitions"

# The inputs, built as tests/adversarial.rs builds them, at full size.
python3 - "$work" <<'EOF'
import os, sys
out = sys.argv[1]

# The definitions the values inputs are checked against (DEFINITIONS in tests/adversarial.rs).
with open(os.path.join(out, "definitions", "iparams.json"), "w") as f:
    f.write("""{
  "code": {"display_name": "Code", "type": "text", "regex": {"as": "^(a+)+$", "as-error": "Only a"}},
  "seats": {"display_name": "Seats", "type": "number"},
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"]},
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
""")

def write(name, text):
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

def repeated(entry, count):
    return ",".join([entry] * count)

write("nested-arrays-100000.json", "[" * 100_000)
write("nested-objects-100000.json", '{"a":' * 100_000)
write("values-nested-arrays-100000.json", "[" * 100_000)
write("values-nested-objects-100000.json", '{"a":' * 100_000)
entries, size, i = [], 2, 0
while size < 50 * 1024 * 1024:
    entry = '  "field_%d": {"display_name": "Field %d", "type": "text", "description": "%s"}' % (i, i, "padding " * 12)
    entries.append(entry)
    size += len(entry) + 2
    i += 1
write("fifty-megabytes.json", "{\n" + ",\n".join(entries) + "\n}\n")
write("invalid-utf8.json", b'{"caf\xe9": {"display_name": "Caf\xe9 \xff\xfe", "type": "text"}}')
write("bom.json", b'\xef\xbb\xbf{"b": {"display_name": "B", "type": "txt"}}\n')
write("nul-bytes.json", b'{"a\0": {"display_name": "A\0B", "type": "text", "default_value": "\0"}}')
write("lone-surrogates.json", r'{"\ud800": {"display_name": "\udc00", "type": "dropdown", "options": ["\ud800", "x"], "default_value": "\udbff"}}')
digits = "9" * 400
write("huge-numbers.json", '{"n": {"display_name": "N", "type": "number", "default_value": 1e400}, "m": {"display_name": %s, "type": "text", "required": 1e400}}' % digits)
long = "x" * (1024 * 1024)
write("megabyte-strings.json", '{"%s": {"display_name": "%s", "type": "text", "default_value": "%s", "regex": {"r": "^[a-z]+%s$"}},\n "pick": {"display_name": "Pick", "type": "dropdown", "options": ["%sa"], "default_value": "%sb"}}' % (long, long, long, long, long, long))
write("values-megabyte-strings.json", '{"code": "%s", "%s": 1, "teams": ["%s"]}' % (long, long, long))
write("duplicate-keys-100000.json", "{%s}" % repeated('"a": {"display_name": "A", "type": "text"}', 100_000))
write("duplicate-attributes-100000.json", '{"a": {"type": "text", %s}}' % repeated('"display_name": "A"', 100_000))
write("duplicate-regexes-100000.json", '{"a": {"display_name": "A", "type": "text", "regex": {%s}}}' % repeated('"r": "^a$"', 100_000))
write("duplicate-options-100000.json", '{"a": {"display_name": "A", "type": "multiselect", "options": [%s], "default_value": [%s]}}' % (repeated('"x"', 100_000), repeated('"y"', 100_000)))
write("values-duplicate-keys-100000.json", "{%s}" % repeated('"seats": "12"', 100_000))
# Each default a different length: identical matches would be answered from the cache.
catastrophic = ",\n".join(
    '"code_%d": {"display_name": "Code", "type": "text", "regex": {"as": "^(a+)+$", "as-error": "Only a"}, "default_value": "%s!"}' % (i, "a" * (5000 + i))
    for i in range(20))
write("catastrophic-regex-1.json", '{%s}' % catastrophic.split(",\n")[0])
write("catastrophic-regex-20.json", "{%s}" % catastrophic)
write("values-catastrophic-regex.json", '{"code": "%s!"}' % ("a" * 5000))
EOF

printf '| input | size | exit | wall (slowest of %s) | peak RSS |\n|---|---|---|---|---|\n' "$runs"
for file in "$work"/*.json; do
    worst=0 rss=0 status=0
    for _ in $(seq "$runs"); do
        status=0
        start=$(date +%s%N)
        case $(basename "$file") in
        values-*) command=("$lint" values --iparams "$work/definitions/iparams.json" --format json "$file") ;;
        *) command=("$lint" --format json "$file") ;;
        esac
        /usr/bin/time -f '%M' -o "$work/time" "${command[@]}" >/dev/null 2>&1 || status=$?
        elapsed=$((($(date +%s%N) - start) / 1000000))
        kilobytes=$(tail -n 1 "$work/time")
        worst=$((elapsed > worst ? elapsed : worst))
        rss=$((kilobytes > rss ? kilobytes : rss))
    done
    size=$(stat -c %s "$file")
    printf '| %s | %s | %s | %s ms | %s MB |\n' "$(basename "$file" .json)" \
        "$(numfmt --to=iec --suffix=B "$size")" "$status" \
        "$worst" "$(python3 -c "print(round($rss / 1024, 1))")"
done
