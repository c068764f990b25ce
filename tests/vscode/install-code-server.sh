#!/usr/bin/env bash
# Installs code-server (VS Code's workbench served over HTTP), pinned, into DEST, for the suite of
# tests/vscode.rs. Its own dependencies are pinned by the npm-shrinkwrap.json files it ships
# (installed with `npm install`: `npm ci` refuses them, as they miss a package or two their
# package.json asks for). No install script runs: code-server's postinstall is done here step by
# step, building only the native modules it needs (the workbench and the extension host run
# without the others), and without the download of ripgrep from outside the registry: Debian's `rg` (package
# ripgrep) stands in, for the searches behind `workspaceContains` and `workspace.findFiles`.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3

if [ $# -ne 1 ]; then
    echo "usage: tests/vscode/install-code-server.sh DEST" >&2
    exit 2
fi
rg=$(command -v rg) || {
    echo "install-code-server.sh: ripgrep is not installed (apt-get install ripgrep)" >&2
    exit 1
}
rm -rf "$1"
mkdir -p "$1"
dest=$(cd "$1" && pwd)
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

echo '{ "private": true }' >"$dest/package.json"
(cd "$dest" && npm install --silent --ignore-scripts "code-server@$CODE_SERVER_VERSION")
# The native modules it cannot run without, built from their sources against the installed Node's
# headers (argon2's install script would download a build from outside the registry): argon2,
# loaded at start (for passwords), and spdlog, which writes the logs behind every output channel
# (an extension's `appendLine` throws without it).
nodedir=$(dirname "$(dirname "$(command -v node)")")
(cd "$dest" && npm_config_nodedir="$nodedir" npm_config_build_from_source=true \
    npm rebuild --silent argon2)
vscode="$dest/node_modules/code-server/lib/vscode"
# What its postinstall.sh does: the workbench's dependencies, then the built-in extensions'.
(cd "$vscode" && npm install --silent --ignore-scripts --omit=dev &&
    npm_config_nodedir="$nodedir" npm rebuild --silent @vscode/spdlog)
ln -s node_modules "$vscode/node_modules.asar"
ln -s code-linux.sh "$vscode/bin/remote-cli/code-server"
ln -s browser-linux.sh "$vscode/bin/helpers/browser.sh"
(cd "$vscode/extensions" && npm install --silent --ignore-scripts --omit=dev && node postinstall.mjs >/dev/null)
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
ln -sf "$rg" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
# (Its configuration file is written in DEST, not in the home folder.)
"$dest/node_modules/.bin/code-server" --config "$dest/config.yaml" --version
