#!/usr/bin/env bash
# Builds every artifact of a release for one platform into OUT, from a clean checkout:
# `dist/build.sh OUT [TARGET]`, TARGET a Rust target of npm/iparams-lint/platforms.js, the host's
# by default; on Linux, glibc or musl of the host's architecture, on macOS and Windows the host's.
#   OUT/bin/      iparams-lint-PLATFORM (.exe on Windows), the binary alone
#   OUT/npm/      iparams-lint-VERSION.tgz (the launcher) and iparams-lint-cli-PLATFORM-VERSION.tgz
#                 (the binary), as `npm pack` makes them
#   OUT/pypi/     the wheel, the binary on the path (maturin, `bindings = "bin"`)
#   OUT/vscode/   iparams-lint-PLATFORM-VERSION.vsix, the extension with the binary inside
#   OUT/crates/   every published crate, as `cargo package` makes it (and verifies it builds)
# Needs Rust (with TARGET's standard library), Node.js with npm and Python 3; maturin, zig (the
# `ziglang` wheel) and vsce are installed, pinned, under the target folder. On Linux the binary is
# linked by zig against glibc 2.17 (manylinux2014) or musl (musllinux_1_2), so that it starts on
# every Linux of its architecture and C library; the wheel, the npm package and the .vsix carry
# that one binary. The release workflow runs it on each platform (.github/workflows/release.yml).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: dist/build.sh OUT [TARGET]   (OUT: the folder to write the artifacts into; TARGET: the host's by default)" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
stage="$target_dir/dist-stage"
tools="$target_dir/dist-tools"
cd "$root"

step() { printf '\n== %s\n' "$*" >&2; }
fail() {
    echo "dist/build.sh: $*" >&2
    exit 1
}

version=$(cargo metadata --no-deps --format-version 1 --locked |
    node -e 'const m = JSON.parse(require("fs").readFileSync(0, "utf8"));
             process.stdout.write(m.packages.find((p) => p.name === "iparams-lint").version)')
host=$(rustc -vV | sed -n 's/^host: //p')
target=${2:-$host}
platform=$(node -e 'const p = require("./npm/iparams-lint/platforms");
                    process.stdout.write(p.platformOfTarget(process.argv[1]) || "")' "$target")
[ -n "$platform" ] || fail "no npm platform is defined for the target $target (npm/iparams-lint/platforms.js)"
exe=""
# The wheel's platform tag, and the C library the binary is linked against, on Linux.
compatibility=""
case "$platform" in
    win32-*) exe=".exe" ;;
    linux-*-musl) compatibility=musllinux_1_2 ;;
    linux-*) compatibility=manylinux2014 ;;
esac
if [ -z "$compatibility" ] && [ "$target" != "$host" ]; then
    fail "$target is not the host's target ($host): off Linux, only the host's binary is built"
fi
step "iparams-lint $version for $platform ($target) into $out"
rm -rf "$stage" "$out"/{bin,npm,pypi,vscode,crates}
mkdir -p "$stage" "$out"/{bin,npm,pypi,vscode,crates}

step "The build tools, pinned (dist/tools/requirements.txt)"
python=$(command -v python3 || command -v python) || fail "Python 3 is needed (python3)"
if [ ! -x "$tools/venv/bin/maturin" ] && [ ! -x "$tools/venv/Scripts/maturin.exe" ]; then
    "$python" -m venv "$tools/venv"
fi
venv_bin="$tools/venv/bin"
[ -d "$venv_bin" ] || venv_bin="$tools/venv/Scripts"
"$venv_bin/python" -m pip install --quiet --disable-pip-version-check -r dist/tools/requirements.txt

if [ -n "$compatibility" ]; then
    # One build, by maturin with zig as the C compiler and linker (the bundled SQLite and ring's
    # C too): the wheel, tagged $compatibility, and the binary the other channels carry.
    step "The binary and the PyPI wheel (the release profile of Cargo.toml, linked by zig for $compatibility)"
    # maturin finds zig as `python -m ziglang` of the first Python on PATH: the venv's.
    (cd dist/pypi && PATH="$venv_bin:$PATH" "$venv_bin/maturin" build --release --zig \
        --target "$target" --compatibility "$compatibility" --out "$out/pypi")
    binary="$target_dir/$target/release/iparams-lint"
else
    step "The binary (the release profile of Cargo.toml)"
    cargo build --release --locked -p iparams-lint
    binary="$target_dir/release/iparams-lint$exe"
fi
"$binary" --version >/dev/null || fail "$binary does not run"
ls -l "$binary" >&2
cp "$binary" "$out/bin/iparams-lint-$platform$exe"

step "npm: the launcher and the package of the binary"
cp -R npm/iparams-lint "$stage/npm-launcher"
platform_package="$stage/npm-$platform"
mkdir -p "$platform_package/bin"
node dist/npm-platform-package.js "$platform" "$version" >"$platform_package/package.json"
cp "$binary" "$platform_package/bin/"
printf '# @iparams-lint/cli-%s\n\nThe iparams-lint binary for %s, installed and run by the [iparams-lint](https://www.npmjs.com/package/iparams-lint) package.\n' \
    "$platform" "$platform" >"$platform_package/README.md"
for package in "$stage/npm-launcher" "$platform_package"; do
    cp LICENSE LICENSE-MIT LICENSE-APACHE "$package/"
    (cd "$package" && npm pack --silent --pack-destination "$out/npm" >/dev/null)
done

if [ -z "$compatibility" ]; then
    step "PyPI: the wheel (maturin)"
    (cd dist/pypi && "$venv_bin/maturin" build --release --out "$out/pypi")
fi

step "VS Code: the extension with the binary inside"
vsce_stage="$stage/vscode"
mkdir -p "$vsce_stage"
(cd editors/vscode && tar cf - --exclude=node_modules --exclude='*.vsix' .) | (cd "$vsce_stage" && tar xf -)
mkdir -p "$vsce_stage/bin"
cp "$binary" "$vsce_stage/bin/"
vsix="$out/vscode/iparams-lint-$platform-$version.vsix"
# VS Code names a musl Linux after Alpine.
case "$platform" in
    linux-*-musl) vsce_target="alpine-${platform#linux-}" && vsce_target=${vsce_target%-musl} ;;
    *) vsce_target=$platform ;;
esac
(
    cd "$vsce_stage"
    export IPARAMS_LINT_SCHEMA="$root/crates/iparams-lint/schemas/iparams.schema.json"
    npm ci --silent --no-audit --no-fund
    npx --no-install vsce package --target "$vsce_target" --out "$vsix"
    node scripts/check-vsix.js "$vsix" "bin/iparams-lint$exe"
)

step "crates.io: every published crate, packaged and verified"
# Verifying builds each crate against the others from a temporary registry, and cargo takes a
# registry's crate of one version to never change: the sources it unpacked under CARGO_HOME, and
# what it built from them, would stand for these from an earlier build. Both are made anew.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/iparams-{core,serve,sandbox,lint}-"$version"
verify_dir="$target_dir/crates-verified"
rm -rf "$verify_dir"
cargo package --workspace --exclude iparams-bench --locked --target-dir "$verify_dir"
cp "$verify_dir"/package/*-"$version".crate "$out/crates/"

step "Done"
(cd "$out" && find . -type f | sort) >&2
