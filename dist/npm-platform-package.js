'use strict';
// Writes the package.json of one platform's binary package (@iparams-lint/cli-<platform>) to
// standard output: `node dist/npm-platform-package.js PLATFORM VERSION`. Its `os`, `cpu` and (on
// Linux) `libc` let npm install it only where it runs; the launcher (npm/iparams-lint) finds its
// bin/ folder.

const { PLATFORMS, packageName, binaryName, libcOf } = require('../npm/iparams-lint/platforms');

const [platform, version] = process.argv.slice(2);
if (!(platform in PLATFORMS) || !version) {
  console.error(
    `usage: node dist/npm-platform-package.js PLATFORM VERSION, PLATFORM one of ${Object.keys(PLATFORMS).join(', ')}`,
  );
  process.exit(2);
}
const [os, cpu] = platform.split('-');
const manifest = {
  name: packageName(platform),
  version,
  description: `The iparams-lint binary for ${platform} (${PLATFORMS[platform]}), run by the iparams-lint package`,
  license: 'MIT OR Apache-2.0',
  repository: {
    type: 'git',
    url: 'git+https://github.com/iparams-lint/iparams-lint.git',
    directory: 'npm/iparams-lint',
  },
  os: [os],
  cpu: [cpu],
  files: [`bin/${binaryName(platform)}`],
  preferUnplugged: true,
};
const libc = libcOf(platform);
if (libc) manifest.libc = [libc];
process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
