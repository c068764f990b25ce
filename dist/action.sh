#!/usr/bin/env bash
# The step of the GitHub Action (action.yml): installs iparams-lint@INPUT_VERSION from the npm
# registry into a folder of its own (the repository's package.json is left alone), then runs
# `iparams-lint --format github INPUT_ARGS INPUT_PATHS`; its exit status is the step's.
set -euo pipefail

prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/iparams-lint-action"
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
    "iparams-lint@${INPUT_VERSION:?the version input of the action is empty}"
read -r -a args <<<"${INPUT_ARGS:-}"
read -r -a paths <<<"${INPUT_PATHS:-.}"
exec "$prefix/node_modules/.bin/iparams-lint" --format github \
    ${args[@]+"${args[@]}"} ${paths[@]+"${paths[@]}"}
