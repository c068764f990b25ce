#!/usr/bin/env node
'use strict';
// Runs the iparams-lint binary of this platform's package (@iparams-lint/cli-<platform>, an
// optional dependency npm installs only where it fits) with this command's arguments, standard
// streams and exit status.

const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { PLATFORMS, packageName, binaryName } = require('../platforms');

const OTHER_WAYS =
  'Install it another way: `pipx install iparams-lint`, `cargo install iparams-lint`, or a ' +
  'binary from https://github.com/iparams-lint/iparams-lint/releases.';

/** The binary's path, or a message saying why there is none and what to do. */
function locate(platform = `${process.platform}-${process.arch}`) {
  if (!(platform in PLATFORMS)) {
    return {
      problem:
        `iparams-lint: there is no prebuilt binary for ${platform}; the npm package has them ` +
        `for ${Object.keys(PLATFORMS).join(', ')}. ${OTHER_WAYS}`,
    };
  }
  const name = packageName(platform);
  try {
    const manifest = require.resolve(`${name}/package.json`);
    return { binary: path.join(path.dirname(manifest), 'bin', binaryName(platform)) };
  } catch {
    return {
      problem:
        `iparams-lint: the package ${name}, which holds the binary for ${platform}, is not ` +
        'installed. npm installs it as an optional dependency: install iparams-lint again ' +
        `without \`--omit=optional\` or \`--no-optional\` (or add ${name} yourself). ${OTHER_WAYS}`,
    };
  }
}

function main() {
  const { binary, problem } = locate();
  if (problem) {
    console.error(problem);
    return 2;
  }
  const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
  if (run.error) {
    console.error(`iparams-lint: could not run ${binary}: ${run.error.message}. ${OTHER_WAYS}`);
    return 2;
  }
  if (run.signal) {
    // Die of the same signal, so that the caller sees what the binary saw.
    process.kill(process.pid, run.signal);
  }
  return run.status ?? 2;
}

if (require.main === module) {
  process.exitCode = main();
}

module.exports = { locate };
