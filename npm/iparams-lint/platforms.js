'use strict';
// The platforms with a prebuilt binary: Node's `${process.platform}-${process.arch}`, with
// `-musl` on a Linux whose C library is musl (Alpine), → the Rust target it is built for. Each
// has the package `@iparams-lint/cli-<platform>`, listed in package.json's optionalDependencies
// with `os`, `cpu` and, on Linux, `libc` set, so npm installs only the one that fits.
// dist/build.sh and the release workflow read this table too.

const PLATFORMS = {
  'linux-x64': 'x86_64-unknown-linux-gnu',
  'linux-x64-musl': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-gnu',
  'linux-arm64-musl': 'aarch64-unknown-linux-musl',
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

/**
 * Whether a diagnostic report (`process.report.getReport()`) is of a Node linked against musl:
 * on glibc its header names the glibc version Node runs with, and musl has no such version.
 * Without a report to read, glibc, the C library of most Linux systems.
 */
function isMusl(report) {
  const header = report?.header;
  return header !== undefined && !header.glibcVersionRuntime;
}

/**
 * The platform of the running Node, as the table names it. `report` is read on Linux only, and
 * made when not given (it takes a few milliseconds).
 * @param {{platform?: string, arch?: string, report?: () => object}} [running]
 */
function currentPlatform(running = {}) {
  const { platform = process.platform, arch = process.arch } = running;
  const base = `${platform}-${arch}`;
  if (platform !== 'linux') return base;
  const report = (running.report ?? (() => process.report?.getReport()))();
  return isMusl(report) ? `${base}-musl` : base;
}

/** The `libc` field of a Linux platform's package ("glibc" or "musl"); undefined elsewhere. */
function libcOf(platform) {
  if (!platform.startsWith('linux-')) return undefined;
  return platform.endsWith('-musl') ? 'musl' : 'glibc';
}

module.exports = { PLATFORMS, packageName, binaryName, platformOfTarget, isMusl, currentPlatform, libcOf };
