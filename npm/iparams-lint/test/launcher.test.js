'use strict';
// The launcher's choices, under plain Node (`npm test`); dist/test.sh runs the installed package.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');

const { locate } = require('../bin/iparams-lint');
const { PLATFORMS, packageName, isMusl, currentPlatform, libcOf } = require('../platforms');

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
  assert.match(
    problem,
    /linux-x64, linux-x64-musl, linux-arm64, linux-arm64-musl, darwin-x64, darwin-arm64, win32-x64/,
  );
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

/** A scratch folder, removed when the test ends. */
function scratch(t) {
  const folder = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'iparams-launcher-'));
  t.after(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** This launcher installed as npm installs it: `<project>/node_modules/iparams-lint`. */
function installLauncher(project) {
  const own = path.join(project, 'node_modules', 'iparams-lint');
  fs.mkdirSync(path.join(own, 'bin'), { recursive: true });
  for (const file of ['package.json', 'platforms.js', 'install.js', 'bin/iparams-lint.js']) {
    fs.copyFileSync(path.join(__dirname, '..', file), path.join(own, file));
  }
  return own;
}

/** A platform package of `version` in the node_modules folder `modules`; its folder. */
function plantPlatformPackage(modules, platform, version) {
  const folder = path.join(modules, packageName(platform));
  fs.mkdirSync(path.join(folder, 'bin'), { recursive: true });
  const manifest = { name: packageName(platform), version };
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(folder, 'bin', 'iparams-lint'), '');
  return folder;
}

/** What the installed launcher's `locate` gives in a Node of its own, with `env`. */
function locateInProcess(own, platform, env) {
  const script = `console.log(JSON.stringify(require(${JSON.stringify(
    path.join(own, 'bin', 'iparams-lint.js'),
  )}).locate(${JSON.stringify(platform)})))`;
  const run = require('node:child_process').spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('a platform package planted above the install, in NODE_PATH or ~/.node_modules is never run', (t) => {
  const root = scratch(t);
  const project = path.join(root, 'home', 'work', 'app');
  const own = installLauncher(project);
  const planted = [
    path.join(root, 'home', 'work', 'node_modules'),
    path.join(root, 'home', '.node_modules'),
    path.join(root, 'elsewhere'),
  ].map((modules) => plantPlatformPackage(modules, 'linux-x64', manifest.version));
  const env = { HOME: path.join(root, 'home'), NODE_PATH: path.join(root, 'elsewhere') };
  for (const platformFolder of planted) {
    // Node's own search would find each of them.
    const search = require('node:child_process').spawnSync(
      process.execPath,
      ['-e', `console.log(require.resolve("${packageName('linux-x64')}/package.json"))`],
      { cwd: own, env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    assert.equal(search.status, 0, search.stderr);
    const { binary, problem } = locateInProcess(own, 'linux-x64', env);
    assert.equal(binary, undefined, `${platformFolder} was run`);
    assert.match(problem, /@iparams-lint\/cli-linux-x64, which holds the binary for linux-x64, is not installed/);
    assert.match(problem, /--omit=optional/);
    fs.rmSync(platformFolder, { recursive: true });
  }
});

test('the platform package of the install is run, beside the launcher or in its node_modules', (t) => {
  const root = scratch(t);
  const own = installLauncher(path.join(root, 'app'));
  const beside = plantPlatformPackage(path.dirname(own), 'linux-x64', manifest.version);
  assert.deepEqual(locate('linux-x64', own), {
    binary: path.join(beside, 'bin', 'iparams-lint'),
  });
  const nested = plantPlatformPackage(path.join(own, 'node_modules'), 'linux-x64', manifest.version);
  assert.deepEqual(locate('linux-x64', own), {
    binary: path.join(nested, 'bin', 'iparams-lint'),
  });
});

test('a platform package of another version than the launcher names is not run', (t) => {
  const root = scratch(t);
  const own = installLauncher(path.join(root, 'app'));
  plantPlatformPackage(path.dirname(own), 'linux-x64', '9.9.9');
  const { binary, problem } = locate('linux-x64', own);
  assert.equal(binary, undefined);
  assert.match(problem, /@iparams-lint\/cli-linux-x64 beside this one is version 9\.9\.9/);
  assert.match(problem, new RegExp(`runs version ${manifest.version.replace(/\./g, '\\.')} only`));
});

test('after install the binary takes the launcher’s place, once; elsewhere the launcher stays', (t) => {
  const { nativeInPlace } = require('../install');
  const root = scratch(t);
  const own = installLauncher(path.join(root, 'app'));
  const launcher = path.join(own, 'bin', 'iparams-lint.js');
  const binary = path.join(root, 'native');
  const native = '#!/bin/sh\necho "iparams-lint 0.1.0"\n';
  fs.writeFileSync(binary, native);
  fs.chmodSync(binary, 0o755);
  const found = () => ({ binary });
  const launcherText = fs.readFileSync(launcher, 'utf8');
  // On Windows, npm's shims call node on the file: the launcher stays.
  assert.match(nativeInPlace(launcher, { platform: 'win32', locate: found }), /kept the JS launcher/);
  // Without the platform package, or with a binary that does not start: the launcher stays.
  const missing = () => ({ problem: 'the package is not installed' });
  assert.match(nativeInPlace(launcher, { platform: 'linux', locate: missing }), /not installed/);
  const broken = path.join(root, 'broken');
  fs.writeFileSync(broken, '#!/bin/sh\nexit 3\n');
  fs.chmodSync(broken, 0o755);
  assert.match(
    nativeInPlace(launcher, { platform: 'linux', locate: () => ({ binary: broken }) }),
    /does not start/,
  );
  assert.equal(fs.readFileSync(launcher, 'utf8'), launcherText);
  // The repository's own launcher (not in a node_modules folder) is never replaced.
  const source = path.join(__dirname, '..', 'bin', 'iparams-lint.js');
  assert.match(nativeInPlace(source, { platform: 'linux', locate: found }), /not an installed copy/);
  // Installed, with a binary that starts: it is put in place, executable, and left there.
  if (process.platform === 'win32') return;
  assert.match(nativeInPlace(launcher, { platform: 'linux', locate: found }), /runs .* directly/);
  assert.equal(fs.readFileSync(launcher, 'utf8'), native);
  assert.ok(fs.statSync(launcher).mode & 0o100);
  assert.deepEqual(fs.readdirSync(path.dirname(launcher)), ['iparams-lint.js']);
  assert.match(nativeInPlace(launcher, { platform: 'linux', locate: found }), /in place already/);
});

// Node's diagnostic report, as far as the choice reads it: on glibc its header names the glibc
// Node runs with; on musl (Alpine) the field is absent.
const GLIBC_REPORT = { header: { glibcVersionRuntime: '2.36', glibcVersionCompiler: '2.28' } };
const MUSL_REPORT = { header: { osName: 'Linux', osRelease: '6.1.0' } };

test('musl is told from glibc by the report of the running Node', () => {
  assert.equal(isMusl(GLIBC_REPORT), false);
  assert.equal(isMusl(MUSL_REPORT), true);
  // Without a report to read: glibc.
  assert.equal(isMusl(undefined), false);
  const linux = (arch, report) => currentPlatform({ platform: 'linux', arch, report: () => report });
  assert.equal(linux('x64', GLIBC_REPORT), 'linux-x64');
  assert.equal(linux('x64', MUSL_REPORT), 'linux-x64-musl');
  assert.equal(linux('arm64', GLIBC_REPORT), 'linux-arm64');
  assert.equal(linux('arm64', MUSL_REPORT), 'linux-arm64-musl');
  // Elsewhere no report is made.
  const never = () => assert.fail('a report was made off Linux');
  assert.equal(currentPlatform({ platform: 'darwin', arch: 'arm64', report: never }), 'darwin-arm64');
  assert.equal(currentPlatform({ platform: 'win32', arch: 'x64', report: never }), 'win32-x64');
});

test('the running Node’s own report agrees with the C library getconf finds', (t) => {
  if (process.platform !== 'linux') return t.skip('Linux only');
  // getconf knows GNU_LIBC_VERSION on glibc only.
  const getconf = require('node:child_process').spawnSync('getconf', ['GNU_LIBC_VERSION'], {
    encoding: 'utf8',
  });
  const glibc = getconf.status === 0 && getconf.stdout.startsWith('glibc ');
  assert.equal(isMusl(process.report.getReport()), !glibc);
  const expected = `linux-${process.arch}${glibc ? '' : '-musl'}`;
  assert.equal(currentPlatform(), expected);
});

test('every Linux platform package is of one C library, and musl ones exist for each glibc one', () => {
  const linux = Object.keys(PLATFORMS).filter((platform) => platform.startsWith('linux-'));
  for (const platform of linux) {
    const musl = platform.endsWith('-musl');
    assert.equal(libcOf(platform), musl ? 'musl' : 'glibc');
    assert.match(PLATFORMS[platform], musl ? /-linux-musl$/ : /-linux-gnu$/);
    if (!musl) assert.ok(`${platform}-musl` in PLATFORMS, `no musl package beside ${platform}`);
  }
  assert.equal(libcOf('darwin-arm64'), undefined);
  assert.equal(libcOf('win32-x64'), undefined);
});

test('on musl the musl package of the install is run, never the glibc one beside it', (t) => {
  const root = scratch(t);
  const own = installLauncher(path.join(root, 'app'));
  const modules = path.dirname(own);
  plantPlatformPackage(modules, 'linux-x64', manifest.version);
  // Only the glibc package installed (npm on a glibc system, the folder copied to Alpine): the
  // musl one is named as missing.
  const { binary, problem } = locate('linux-x64-musl', own);
  assert.equal(binary, undefined);
  assert.match(problem, /@iparams-lint\/cli-linux-x64-musl, which holds the binary for linux-x64-musl, is not installed/);
  const musl = plantPlatformPackage(modules, 'linux-x64-musl', manifest.version);
  assert.deepEqual(locate('linux-x64-musl', own), { binary: path.join(musl, 'bin', 'iparams-lint') });
  assert.deepEqual(locate('linux-x64', own), {
    binary: path.join(modules, packageName('linux-x64'), 'bin', 'iparams-lint'),
  });
});
