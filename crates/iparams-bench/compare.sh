#!/usr/bin/env bash
# iparams-lint against the validators a user would otherwise run on config/iparams.json, side
# by side in one run, on the shared deterministic corpora. See docs/BENCHMARKS.md.
#
#   crates/iparams-bench/compare.sh
#
# On a fresh machine it installs hyperfine, time, jq and valgrind (Debian), check-jsonschema
# (PyPI, into target/bench-tools/venv) and ajv-cli (npm, into target/bench-tools/node); builds
# iparams-lint in release mode; generates the corpora with ../shared/bench/gen.py into
# target/bench-corpus; times every tool on every corpus with hyperfine, then the fast ones again
# in turn (paired.py), and says how much CPU time the host took meanwhile; measures iparams-lint's
# peak memory and its scaling (in time and in instructions); runs the in-process cargo bench;
# and prints a summary of ratios against the targets.
# Raw results go to target/bench-results/. A missed target is reported, never a failure: the
# script exits non-zero only when it could not measure.
#
# Knobs (environment): LINT_ARGS, WARMUP, MIN_RUNS, PAIRED_ROUNDS, SKIP_INPROCESS=1,
# IPARAMS_BENCH_SHARED, CARGO (the command that runs cargo, e.g. "flock /tmp/cargo.lock cargo" on
# a shared machine), and PROFILE=1 to also profile iparams-lint on large.json with valgrind
# (callgrind and massif).
set -euo pipefail

# The iparams-lint command line, without its paths: the default (human) format, the one users
# see first. Each corpus is also timed with `--format json` beside it. The output goes to
# /dev/null: hyperfine discards the output of the commands it times, and the memory runs
# redirect it.
LINT_ARGS=${LINT_ARGS:-""}
JSON_ARGS="--format json"
CARGO=${CARGO:-cargo}

# The peers, pinned so that a rerun measures the same code.
CHECK_JSONSCHEMA_VERSION=0.39.0
AJV_CLI_VERSION=5.0.0

WARMUP=${WARMUP:-3}
MIN_RUNS=${MIN_RUNS:-10}
# Rounds of the interleaved timing of each corpus (paired.py), after hyperfine's.
PAIRED_ROUNDS=${PAIRED_ROUNDS:-15}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
shared=${IPARAMS_BENCH_SHARED:-$root/../shared/bench}
target=${CARGO_TARGET_DIR:-$root/target}
tools=$target/bench-tools
corpus=$target/bench-corpus
results=$target/bench-results

step() { printf '\n== %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
q() { printf '%q' "$1"; }

for file in gen.py iparams.peer-schema.json; do
    if [ ! -f "$shared/$file" ]; then
        echo "compare.sh: $shared/$file is missing (set IPARAMS_BENCH_SHARED)" >&2
        exit 2
    fi
done

# --- 1. The tools --------------------------------------------------------------------------
step "installing the tools (skipped where present)"
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
[ -x /usr/bin/time ] || missing+=(time)
command -v jq >/dev/null || missing+=(jq)
command -v valgrind >/dev/null || missing+=(valgrind)
if [ ${#missing[@]} -gt 0 ]; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

venv=$tools/venv
check_jsonschema=$venv/bin/check-jsonschema
if ! "$check_jsonschema" --version 2>/dev/null | grep -qF "$CHECK_JSONSCHEMA_VERSION"; then
    if ! python3 -m venv "$venv"; then
        # Debian's own Python keeps venv in a package of its own.
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install -q --disable-pip-version-check \
        "check-jsonschema==$CHECK_JSONSCHEMA_VERSION"
fi
# The venv's interpreter is the real one (a pyenv shim would add its own start-up to the floor).
python=$venv/bin/python3

node_dir=$tools/node
ajv=$node_dir/node_modules/.bin/ajv
ajv_version() {
    "$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
        "$node_dir/node_modules/$1/package.json" 2>/dev/null || true
}
if [ ! -x "$ajv" ] || [ "$(ajv_version ajv-cli)" != "$AJV_CLI_VERSION" ]; then
    if ! command -v npm >/dev/null; then
        echo "compare.sh: npm is needed to install ajv-cli (Debian: apt-get install npm)" >&2
        exit 2
    fi
    mkdir -p "$node_dir"
    # The schema has no "format" keyword, so ajv-formats is not needed.
    npm install --prefix "$node_dir" --no-audit --no-fund --loglevel=error \
        "ajv-cli@$AJV_CLI_VERSION"
fi

# --- 2. iparams-lint -----------------------------------------------------------------------
step "building iparams-lint (release)"
(cd "$root" && $CARGO build --release -p iparams-lint)
lint=$target/release/iparams-lint

# --- 3. The corpora ------------------------------------------------------------------------
# gen.py is deterministic: regenerate only when it changed. scale-5k/large.json has the same
# first 5,000 iparams as large.json (same random stream), a tenth of its size.
stamp="$(sha256sum "$shared/gen.py" | cut -d' ' -f1) scale-5k valid"
if [ ! -f "$corpus/manifest.json" ] || [ "$(cat "$corpus/.stamp" 2>/dev/null)" != "$stamp" ]; then
    step "generating the corpora into $corpus"
    rm -rf -- "$corpus"
    python3 "$shared/gen.py" "$corpus"
    python3 "$shared/gen.py" "$corpus/scale-5k" --many 0 --large-iparams 5000
    # Every file valid for the peer schema: no tool may stop at a file's first error.
    python3 "$shared/gen.py" "$corpus/valid" --many 2000 --error-rate 0 --large-iparams 0
    echo "$stamp" >"$corpus/.stamp"
fi
cp "$shared/iparams.peer-schema.json" "$corpus/peer-schema.json"
printf '{}\n' >"$corpus/empty.json"
# large.json with every iparam broken twice (its display_name misspelt: one attribute missing,
# one unknown), 114,000 findings in all: peak memory whatever the number of findings.
sed 's/"display_name"/"display_nam"/g' "$corpus/large.json" >"$corpus/broken.json"
# 100,001 iparams of an unknown type sharing one label: two findings each but the first (a repeated
# display name, and the type), 200,001 in all on 7.5 MB.
python3 -c '
import sys
fields = ",\n".join(
    "\"field_%d\": {\"display_name\": \"Field\", \"type\": \"txt\", \"required\": true}" % i
    for i in range(100_001))
sys.stdout.write("{\n" + fields + "\n}\n")' >"$corpus/findings.json"

rm -rf -- "$results"
mkdir -p "$results/sanity"
cd "$corpus"
many=$(printf '%s ' many/*.json)
valid=$(printf '%s ' valid/many/*.json)

# Every command below runs in $corpus, with short relative paths, and without a shell (-N):
# globs are expanded here, except ajv's, which ajv-cli expands itself as its docs show.
lint_cmd() { echo "$(q "$lint") $LINT_ARGS $*"; }
json_cmd() { echo "$(q "$lint") $JSON_ARGS $*"; }
cjs_cmd() { echo "$(q "$check_jsonschema") --schemafile peer-schema.json $*"; }
ajv_cmd() { echo "$(q "$ajv") validate --allow-union-types -s peer-schema.json -d $1"; }
py_floor_cmd() {
    echo "$(q "$python") -c 'import json,sys; [json.load(open(f)) for f in sys.argv[1:]]' $*"
}
jq_floor_cmd() { echo "jq empty $*"; }

# --- 4. Environment ------------------------------------------------------------------------
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (modified)')"
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores available)"
    echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
    echo "kernel: $(uname -sr)"
    echo "rustc: $(rustc --version)"
    echo "iparams-lint commands: iparams-lint $LINT_ARGS PATHS; iparams-lint $JSON_ARGS PATHS"
    echo "hyperfine: $(hyperfine --version)"
    echo "check-jsonschema: $("$check_jsonschema" --version) on $("$python" --version)"
    echo "ajv-cli: $(ajv_version ajv-cli) (ajv $(ajv_version ajv)) on node $(node --version)"
    echo "jq: $(jq --version 2>/dev/null || echo 'not installed')"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$results/environment.txt"
cat "$results/environment.txt" >&2

# --- 5. Sanity: each tool really checks each corpus ----------------------------------------
# One run each, output kept, so the summary can show that every tool found the planted errors
# (iparams-lint's in JSON, which report.py reads).
step "sanity runs"
sanity() {
    local name=$1 cmd=$2
    eval "$cmd" >"$results/sanity/$name.out" 2>"$results/sanity/$name.err" && status=0 || status=$?
    echo "$status" >"$results/sanity/$name.status"
}
for c in typical many large valid; do
    case $c in
        typical) paths=typical/iparams.json ajv_paths=typical/iparams.json ;;
        many) paths=$many ajv_paths="'many/*.json'" ;;
        large) paths=large.json ajv_paths=large.json ;;
        valid) paths=$valid ajv_paths="'valid/many/*.json'" ;;
    esac
    sanity "iparams-lint.$c" "$(json_cmd "$paths")"
    sanity "check-jsonschema.$c" "$(cjs_cmd "$paths")"
    sanity "ajv-cli.$c" "$(ajv_cmd "$ajv_paths")"
done

# --- 6. Time: all tools side by side, one hyperfine run per corpus --------------------------
# On a virtual machine the host may run other work on these cores: the time it takes from them
# (steal, in /proc/stat) is said for each corpus's timings, so that runs of different moments
# can be told apart. Its share of all CPU time, since a reading of `cpu_times`.
cpu_times() { awk '/^cpu / { print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
stolen_since() {
    local before=($1) now
    read -r -a now <<<"$(cpu_times)"
    awk -v s="$((now[0] - before[0]))" -v t="$((now[1] - before[1]))" \
        'BEGIN { printf "%.1f%% of the CPU time", (t > 0 ? 100 * s / t : 0) }'
}
stolen_while() {
    echo "stolen by the host while $1 was timed: $(stolen_since "$2")" >>"$results/environment.txt"
}
time_corpus() {
    local name=$1 paths=$2 ajv_paths=$3 before
    before=$(cpu_times)
    step "timing: $name"
    local commands=(
        -n iparams-lint "$(lint_cmd "$paths")"
        -n "iparams-lint --format json" "$(json_cmd "$paths")"
        -n check-jsonschema "$(cjs_cmd "$paths")"
        -n ajv-cli "$(ajv_cmd "$ajv_paths")"
        -n "floor: python json.load" "$(py_floor_cmd "$paths")"
    )
    if command -v jq >/dev/null; then
        commands+=(-n "floor: jq empty" "$(jq_floor_cmd "$paths")")
    fi
    # -i: every tool exits non-zero, because the corpora contain planted errors.
    hyperfine -N -i --style basic --warmup "$WARMUP" --min-runs "$MIN_RUNS" \
        --export-json "$results/$name.json" --export-markdown "$results/$name.md" \
        "${commands[@]}" 2>&1 | tee "$results/$name.txt" >&2
    stolen_while "$name" "$before"
    # The same, in turn (paired.py): iparams-lint in both formats, and the peers fast enough
    # to be run a few dozen times.
    local paired=(
        "iparams-lint=$(lint_cmd "$paths")"
        "iparams-lint --format json=$(json_cmd "$paths")"
        "ajv-cli=$(ajv_cmd "$ajv_paths")"
    )
    if [ "$name" = typical ]; then
        paired+=("check-jsonschema=$(cjs_cmd "$paths")")
    fi
    python3 "$here/paired.py" --rounds "$PAIRED_ROUNDS" \
        --export-json "$results/$name.paired.json" "${paired[@]}"
}
time_corpus typical typical/iparams.json typical/iparams.json
time_corpus many "$many" "'many/*.json'"
time_corpus large large.json large.json
time_corpus valid "$valid" "'valid/many/*.json'"

# --- 7. Scaling: 10x the input ---------------------------------------------------------------
step "timing: scaling"
before=$(cpu_times)
hyperfine -N -i --style basic --warmup "$WARMUP" --min-runs "$MIN_RUNS" \
    --export-json "$results/scaling.json" --export-markdown "$results/scaling.md" \
    -n "iparams-lint {} (start-up)" "$(lint_cmd empty.json)" \
    -n "iparams-lint 5,000 iparams" "$(lint_cmd scale-5k/large.json)" \
    -n "iparams-lint 50,000 iparams" "$(lint_cmd large.json)" \
    2>&1 | tee "$results/scaling.txt" >&2
stolen_while scaling "$before"
# The same three runs counted in instructions (callgrind), which the machine's load cannot move.
read -r -a lint_args <<<"$LINT_ARGS"
{
    printf 'input\tinstructions\n'
    for input in empty.json scale-5k/large.json large.json; do
        valgrind --tool=callgrind --callgrind-out-file="$results/scaling.callgrind" \
            "$lint" "${lint_args[@]}" "$input" >/dev/null 2>"$results/scaling.callgrind.log" || true
        printf '%s\t%s\n' "$input" \
            "$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$results/scaling.callgrind.log")"
    done
} >"$results/scaling-instructions.tsv"
rm -f "$results/scaling.callgrind" "$results/scaling.callgrind.log"

# --- 8. Peak memory (max RSS) ----------------------------------------------------------------
# iparams-lint three times per corpus and format (the largest is kept), each peer once for
# context; and how many findings iparams-lint keeps (the target allows 1 KB each).
step "peak memory"
rss_kib() {
    local out=$results/rss.tmp
    eval "/usr/bin/time -f %M -o $(q "$out") $1" >/dev/null 2>&1 || true
    tail -n1 "$out"
}
{
    printf 'corpus\ttool\tmax_rss_kib\tfindings\n'
    for c in empty typical many large broken findings valid; do
        case $c in
            empty) paths=empty.json ajv_paths=empty.json ;;
            broken) paths=broken.json ajv_paths=broken.json ;;
            findings) paths=findings.json ajv_paths=findings.json ;;
            typical) paths=typical/iparams.json ajv_paths=typical/iparams.json ;;
            many) paths=$many ajv_paths="'many/*.json'" ;;
            large) paths=large.json ajv_paths=large.json ;;
            valid) paths=$valid ajv_paths="'valid/many/*.json'" ;;
        esac
        best=0 best_json=0
        for _ in 1 2 3; do
            kib=$(rss_kib "$(lint_cmd "$paths")")
            [ "$kib" -gt "$best" ] && best=$kib
            kib=$(rss_kib "$(json_cmd "$paths")")
            [ "$kib" -gt "$best_json" ] && best_json=$kib
        done
        # iparams-lint exits 1 on findings: its status is not the pipeline's.
        found=$({ eval "$(json_cmd "$paths")" 2>/dev/null || true; } |
            jq '.summary.errors + .summary.warnings + .summary.infos')
        printf '%s\tiparams-lint\t%s\t%s\n' "$c" "$best" "$found"
        printf '%s\tiparams-lint --format json\t%s\t%s\n' "$c" "$best_json" "$found"
        if [ "$c" != empty ] && [ "$c" != findings ]; then
            printf '%s\tcheck-jsonschema\t%s\t\n' "$c" "$(rss_kib "$(cjs_cmd "$paths")")"
            printf '%s\tajv-cli\t%s\t\n' "$c" "$(rss_kib "$(ajv_cmd "$ajv_paths")")"
        fi
    done
} >"$results/memory.tsv"
rm -f "$results/rss.tmp"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$results/environment.txt"

# --- 9. In-process: parse+lint against serde_json -------------------------------------------
if [ "${SKIP_INPROCESS:-0}" != 1 ]; then
    step "in-process bench (cargo bench -p iparams-bench)"
    (cd "$root" && IPARAMS_BENCH_LARGE=$corpus/large.json \
        $CARGO bench -p iparams-bench --bench throughput -- --color never) 2>&1 |
        tee "$results/inprocess.txt" >&2
fi

# --- 10. Where the time and memory go (PROFILE=1) --------------------------------------------
# Instruction counts (callgrind) and heap (massif) do not depend on the machine's load. The
# release profile strips symbols, so a symbolised copy is built in target/profiling.
if [ "${PROFILE:-0}" = 1 ]; then
    step "profiling iparams-lint on large.json (valgrind)"
    (cd "$root" && CARGO_PROFILE_RELEASE_STRIP=false CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
        $CARGO build --release -p iparams-lint --target-dir "$target/profiling")
    profiled=("$target/profiling/release/iparams-lint" "${lint_args[@]}" large.json)
    valgrind --tool=callgrind --callgrind-out-file="$results/callgrind.out" "${profiled[@]}" \
        >/dev/null 2>"$results/callgrind.log" || true
    callgrind_annotate --inclusive=yes "$results/callgrind.out" >"$results/callgrind.txt"
    valgrind --tool=massif --massif-out-file="$results/massif.out" "${profiled[@]}" \
        >/dev/null 2>"$results/massif.log" || true
    ms_print "$results/massif.out" >"$results/massif.txt"
    echo "profiles: $results/callgrind.txt, $results/massif.txt" >&2
fi

# --- 11. Summary -----------------------------------------------------------------------------
step "summary"
"$python" "$here/report.py" "$results" "$corpus"
