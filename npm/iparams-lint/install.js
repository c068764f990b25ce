#!/usr/bin/env node
'use strict';
// After `npm install` (postinstall): the native binary takes the place of the JS launcher in
// bin/, so that node_modules/.bin/iparams-lint (a link to it) runs the binary directly, without
// starting Node first (about 100 ms of every `npm run lint`, hook and editor start). Where that
// cannot be done the JS launcher stays, and runs the binary as before: on Windows (npm's .bin
// shims there call `node` on the file), without the platform package (`--omit=optional`), or
// when the binary does not start. Nothing here ever fails the install.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const LAUNCHER = path.join(__dirname, 'bin', 'iparams-lint.js');

/** The JS launcher's first line: what tells it from a binary put in its place. */
const SHEBANG = '#!/usr/bin/env node';

/** Whether `file` is still the JS launcher, not a binary put in its place. */
function isLauncher(file) {
  const head = Buffer.alloc(SHEBANG.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head.toString('latin1') === SHEBANG;
}

/**
 * Puts the binary `locate` finds in the place of `launcher`; returns what was done, in words.
 * @param {string} launcher
 * @param {{platform?: string, locate?: () => {binary?: string, problem?: string}}} [options]
 */
function nativeInPlace(launcher = LAUNCHER, options = {}) {
  const platform = options.platform || process.platform;
  if (platform === 'win32') return 'kept the JS launcher: npm on Windows runs bin files with node';
  // Only an installed copy (in a node_modules folder), never the repository's own file.
  const holder = path.dirname(path.dirname(path.dirname(launcher)));
  if (path.basename(holder) !== 'node_modules') return 'kept the JS launcher: not an installed copy';
  if (!isLauncher(launcher)) return 'the binary is in place already';
  const { binary, problem } = (options.locate || require(launcher).locate)();
  if (!binary) return `kept the JS launcher: ${problem}`;
  try {
    const version = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 10000 });
    if (!version.startsWith('iparams-lint ')) return `kept the JS launcher: ${binary} is not iparams-lint`;
  } catch (error) {
    return `kept the JS launcher: ${binary} does not start (${error.message})`;
  }
  // A link shares the platform package's copy; across file systems, a copy. Then one rename:
  // the launcher is whole, or the binary is.
  const staged = `${launcher}.${process.pid}.native`;
  try {
    fs.linkSync(binary, staged);
  } catch {
    fs.copyFileSync(binary, staged);
  }
  fs.chmodSync(staged, 0o755);
  fs.renameSync(staged, launcher);
  return `node_modules/.bin/iparams-lint runs ${binary} directly`;
}

if (require.main === module) {
  try {
    const done = nativeInPlace();
    if (process.env.IPARAMS_LINT_INSTALL_LOG) console.log(`iparams-lint: ${done}`);
  } catch (error) {
    // The JS launcher still works: say why it stays, and let the install go on.
    console.warn(`iparams-lint: kept the JS launcher (${error.message})`);
  }
}

module.exports = { nativeInPlace };
