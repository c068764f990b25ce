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

# The targets of the app's other surfaces. Their inputs are read by `Input` in
# tests/invariants.rs: choice bytes, and texts that end at a 0xFF byte.
seed_bytes() { # target, name, then printf arguments
    local target="$1" name="$2"
    shift 2
    mkdir -p "$fuzz/corpus/$target"
    printf "$@" >"$fuzz/corpus/$target/$name"
}
mapfile -t apps < <(find "$repo/fixtures/apps" -name requests.json -path '*/config/*' | sort)
for requests in "${apps[@]}"; do
    app="$(dirname "$(dirname "$requests")")"
    script="$(find "$app" \( -name '*.js' -o -name '*.html' \) -not -path '*/config/*' | sort | head -n 1)"
    out="$fuzz/corpus/app/$(sha1sum <"$requests" | cut -c1-40)"
    mkdir -p "$fuzz/corpus/app"
    { cat "$requests"; printf '\377'; [ -n "$script" ] && cat "$script"; } >"$out"
done
mapfile -t scripts < <(find "$repo/fixtures/apps" \( -name '*.js' -o -name '*.html' -o -name '*.ts' \) | sort)
for script in "${scripts[@]}"; do
    mkdir -p "$fuzz/corpus/js"
    case "$script" in
        *.html) kind='\001' ;;
        */config/assets/*) kind='\005' ;;
        */server/*) kind='\006' ;;
        *) kind='\000' ;;
    esac
    { printf "$kind"; cat "$script"; } >"$fuzz/corpus/js/$(sha1sum <"$script" | cut -c1-40)"
done
for file in "${fixtures[@]:0:60}"; do
    mkdir -p "$fuzz/corpus/positions" "$fuzz/corpus/form_values"
    { printf '\001'; head -c 2000 "$file"; printf '\377\003\004\001\002'; } >"$fuzz/corpus/positions/$(sha1sum <"$file" | cut -c1-40)"
done
seed_bytes positions crlf '\002a\r\nb\rc\n\360\237\230\200d\377\001\002\003\004'
seed_bytes form_values strings '\001\000\002abc\377\001\001\003\001\002x\377y\377\002\004\000\001'
seed_bytes form_values booleans '\001\011\000\000\001\012\000\001\000name\377\003\000'
# A session: UTF-8, open iparams.json, change it by a range, hover, complete, ask for code
# actions, then close.
iparams="$(tr -d '\377' <"$repo/fixtures/apps/hr-sync/config/iparams.json")"
seed_bytes lsp session '\001\000\000%s\377\000\002\001\002\001\003"x"\377\000\004\002\005\000\005\003\006\000\010\000\000\010\010\001\000\011\000' "$iparams"
seed_bytes lsp requests-file '\003\001\001{"t":{"schema":{"method":"GET","host":"a.b.com","path":"/x"}}}\377\001\006\001\002\001\007\001\003\001'
seed_bytes lsp untitled '\000\004\000{"a":{"type":"text"}}\377\004\004\000\001\004\002\000\000\000\000{\377'
# Requests to the sandbox: GET employees as HR partner; POST an employee; a bad host; a body.
seed_bytes sandbox get-employees '\000\000\377\002\002\000\001\377'
seed_bytes sandbox list-query '\000\000?page=2&sort=first_name&status=active\377\002\000\001\000application/json\377\001\377'
seed_bytes sandbox post-employee '\001\000\377\002\002\001\001application/json\377\001{"first_name":"A","last_name":"B","official_email":"a@b.co","employee_id":"7"}\377'
seed_bytes sandbox post-time-off '\001\003\377\002\004\001\001application/json\377\001{"leave_type_id":1,"start_date":"2025-01-06","end_date":"2025-01-08"}\377'
seed_bytes sandbox approve '\002\005\377\002\001\000\001\377'
seed_bytes sandbox bad-host '\000\011\377\000localhost:1\377\005Basic x\377\000\001\377'
for target in app js lsp positions form_values sandbox; do
    echo "$target: $(find "$fuzz/corpus/$target" -type f | wc -l) inputs"
done
