'use strict';
// The platforms with a prebuilt binary: Node's `${process.platform}-${process.arch}` → the Rust
// target it is built for. Each has the package `@iparams-lint/cli-<platform>`, listed in
// package.json's optionalDependencies with `os` and `cpu` set, so npm installs only the one that
// fits. dist/build.sh and the release workflow read this table too.

const PLATFORMS = {
  'linux-x64': 'x86_64-unknown-linux-gnu',
  'linux-arm64': 'aarch64-unknown-linux-gnu',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
};

/** The npm package of a platform's binary. */
function packageName(platform) {
  return `@iparams-lint/cli-${platform}`;
}

/** The binary's file name on a platform. */
function binaryName(platform) {
  return platform.startsWith('win32-') ? 'iparams-lint.exe' : 'iparams-lint';
}

/** The platform whose Rust target is `triple`, or undefined. */
function platformOfTarget(triple) {
  return Object.keys(PLATFORMS).find((platform) => PLATFORMS[platform] === triple);
}

module.exports = { PLATFORMS, packageName, binaryName, platformOfTarget };
