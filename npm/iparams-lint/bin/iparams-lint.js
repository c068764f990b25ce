#!/usr/bin/env node
'use strict';
// Runs the iparams-lint binary of this platform's package (@iparams-lint/cli-<platform>, an
// optional dependency npm installs only where it fits; on Linux, the glibc or the musl one, as
// Node's own C library is) with this command's arguments, standard streams and exit status: only
// the package of this install, of the version it names.

const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { PLATFORMS, packageName, binaryName, currentPlatform } = require('../platforms');

const OTHER_WAYS =
  'Install it another way: `pipx install iparams-lint`, `cargo install iparams-lint`, or a ' +
  'binary from https://github.com/iparams-lint/iparams-lint/releases.';

/** This package's folder (the real one: Node loads a linked package from where it is). */
const OWN_FOLDER = path.join(__dirname, '..');

/**
 * The two folders where npm (and pnpm) put this package's own dependency `name`: nested in
 * its node_modules, or beside it in the node_modules that holds it. Never Node's search
 * further up, in NODE_PATH or in ~/.node_modules: a package planted there is not this install's.
 */
function ownDependencyFolders(name, own = OWN_FOLDER) {
  const folders = [path.join(own, 'node_modules', name)];
  const holder = path.dirname(own);
  if (path.basename(holder) === 'node_modules') folders.push(path.join(holder, name));
  return folders;
}

/** The package.json of `folder`, or undefined when there is none to read. */
function manifestOf(folder) {
  try {
    return JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The binary's path, or a message saying why there is none and what to do. */
function locate(platform = currentPlatform(), own = OWN_FOLDER) {
  if (!(platform in PLATFORMS)) {
    return {
      problem:
        `iparams-lint: there is no prebuilt binary for ${platform}; the npm package has them ` +
        `for ${Object.keys(PLATFORMS).join(', ')}. ${OTHER_WAYS}`,
    };
  }
  const name = packageName(platform);
  const expected = (manifestOf(own)?.optionalDependencies ?? {})[name];
  const found = ownDependencyFolders(name, own)
    .map((folder) => ({ folder, manifest: manifestOf(folder) }))
    .filter(({ manifest }) => manifest?.name === name);
  const fitting = found.find(({ manifest }) => manifest.version === expected);
  if (fitting) {
    return { binary: path.join(fitting.folder, 'bin', binaryName(platform)) };
  }
  if (found.length > 0) {
    return {
      problem:
        `iparams-lint: the package ${name} beside this one is version ` +
        `${found[0].manifest.version}, and this iparams-lint runs version ${expected} only: ` +
        `install iparams-lint again. ${OTHER_WAYS}`,
    };
  }
  return {
    problem:
      `iparams-lint: the package ${name}, which holds the binary for ${platform}, is not ` +
      'installed. npm installs it as an optional dependency: install iparams-lint again ' +
      `without \`--omit=optional\` or \`--no-optional\` (or add ${name} yourself). ${OTHER_WAYS}`,
  };
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
