'use strict';
// The launcher's choices, under plain Node (`npm test`); dist/test.sh runs the installed package.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');

const { locate } = require('../bin/iparams-lint');
const { PLATFORMS, packageName } = require('../platforms');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));

test('every platform of the table is an optional dependency of the same version, and only those', () => {
  const expected = Object.fromEntries(
    Object.keys(PLATFORMS)
      .sort()
      .map((platform) => [packageName(platform), manifest.version]),
  );
  assert.deepEqual(manifest.optionalDependencies, expected);
});

test('an unknown platform is told which platforms exist and how else to install', () => {
  const { binary, problem } = locate('linux-ia32');
  assert.equal(binary, undefined);
  assert.match(problem, /no prebuilt binary for linux-ia32/);
  assert.match(problem, /linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64/);
  assert.match(problem, /pipx install iparams-lint/);
  assert.match(problem, /cargo install iparams-lint/);
});

test('a known platform whose package is missing says which package and how to get it', () => {
  // Not installed here: this folder has no node_modules.
  const { binary, problem } = locate('darwin-arm64');
  assert.equal(binary, undefined);
  assert.match(problem, /@iparams-lint\/cli-darwin-arm64/);
  assert.match(problem, /--omit=optional/);
});
