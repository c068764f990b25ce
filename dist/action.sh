#!/usr/bin/env bash
# The step of the GitHub Action (action.yml): installs iparams-lint@INPUT_VERSION from the npm
# registry into a folder of its own (the repository's package.json is left alone), then runs
# `iparams-lint --format github INPUT_ARGS -- INPUT_PATHS`; its exit status is the step's. Both
# inputs are split on spaces and newlines, every line of them (`paths: |` with one app a line).
set -euo pipefail

prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/iparams-lint-action"
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
    "iparams-lint@${INPUT_VERSION:?the version input of the action is empty}"
# To the end of the text, not of its first line (`read` then reports the end: not a failure).
read -r -d '' -a args <<<"${INPUT_ARGS:-}" || true
read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
# Paths after `--`: a folder named `--exit-zero` is a path, not an option.
exec "$prefix/node_modules/.bin/iparams-lint" --format github \
    ${args[@]+"${args[@]}"} -- ${paths[@]+"${paths[@]}"}
