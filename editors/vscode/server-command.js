'use strict';
// Which program the extension starts: the `iparams-lint.path` setting, `iparams-lint` on PATH, or
// the binary inside a platform-specific .vsix. Kept apart from extension.js (no `vscode` import)
// so that it runs under plain Node in test/ and in dist/test.sh.

const fs = require('fs');
const os = require('os');
const path = require('path');

const NAME = process.platform === 'win32' ? 'iparams-lint.exe' : 'iparams-lint';

/**
 * The first executable `iparams-lint` on a PATH, or undefined.
 * @param {string | undefined} searchPath the PATH to look through
 */
function onPath(searchPath) {
  for (const folder of (searchPath || '').split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, NAME);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next folder.
    }
  }
  return undefined;
}

/**
 * The workspace folder's own install (`npm i -D iparams-lint`: node_modules/.bin), or undefined.
 * @param {string | undefined} workspaceFolder
 */
function projectInstall(workspaceFolder) {
  if (!workspaceFolder) return undefined;
  const bin = process.platform === 'win32' ? 'iparams-lint.cmd' : 'iparams-lint';
  const candidate = path.join(workspaceFolder, 'node_modules', '.bin', bin);
  try {
    return fs.statSync(candidate).isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The binary packaged in a platform-specific .vsix (bin/ of the extension), or undefined.
 * @param {string} extensionFolder
 */
function bundled(extensionFolder) {
  const candidate = path.join(extensionFolder, 'bin', NAME);
  return fs.existsSync(candidate) ? candidate : undefined;
}

/**
 * The executable and arguments of the server, and where it was found: the `iparams-lint.path`
 * setting when set; else the workspace folder's own install (node_modules/.bin, the version the
 * project pins, as biome's extension prefers); else `iparams-lint` on PATH (a binary the user
 * installed wins over the copy inside the extension); else the binary bundled in the extension;
 * else the bare name, which fails to start with an explanation (`startFailure`).
 * @param {string | undefined} configured the `iparams-lint.path` setting
 * @param {string | undefined} workspaceFolder the workspace folder's path, if any
 * @param {{extensionFolder?: string, searchPath?: string}} [where] the extension's folder and
 *   the PATH to look through (the process's by default)
 * @returns {{command: string, args: string[], source: 'setting' | 'project' | 'PATH' | 'bundled' | 'none'}}
 */
function serverCommand(configured, workspaceFolder, where = {}) {
  const args = ['lsp', '--stdio'];
  let command = (configured || '').trim();
  if (command) {
    if (command === '~' || command.startsWith('~/')) {
      command = path.join(os.homedir(), command.slice(1));
    }
    // A bare name is looked up on PATH by the operating system; a relative path with a folder in
    // it means the workspace's copy (`./target/release/iparams-lint`), not the editor's cwd.
    const hasFolder = command.includes('/') || command.includes(path.sep);
    if (hasFolder && !path.isAbsolute(command) && workspaceFolder) {
      command = path.resolve(workspaceFolder, command);
    }
    return { command, args, source: 'setting' };
  }
  const project = projectInstall(workspaceFolder);
  if (project) return { command: project, args, source: 'project' };
  const searchPath = where.searchPath === undefined ? process.env.PATH : where.searchPath;
  const found = onPath(searchPath);
  if (found) return { command: found, args, source: 'PATH' };
  const inside = where.extensionFolder && bundled(where.extensionFolder);
  if (inside) return { command: inside, args, source: 'bundled' };
  return { command: 'iparams-lint', args, source: 'none' };
}

/** Which binary was started, for the output channel. */
function startedFrom({ command, source }) {
  const why = {
    setting: 'the "iparams-lint.path" setting',
    project: 'the workspace\'s node_modules ("iparams-lint.path" is not set)',
    PATH: 'PATH ("iparams-lint.path" is not set, the workspace has no node_modules/.bin/iparams-lint)',
    bundled: 'the extension\'s own copy ("iparams-lint.path" is not set, PATH has none)',
    none: 'nothing: "iparams-lint.path" is not set, PATH has none, and this extension has no bundled binary',
  }[source];
  return `Starting the server ${command} lsp, from ${why}.`;
}

/**
 * Why the server did not start, in words for the user: what is wrong, where, what to do.
 * @param {string} command
 * @param {unknown} error
 */
function startFailure(command, error) {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') {
    return (
      `iparams-lint: the server "${command}" was not found. Install it ` +
      '(`npm i -g iparams-lint`, `pipx install iparams-lint` or `cargo install iparams-lint`), ' +
      'or install the extension for your platform (it has the binary inside), or set ' +
      '"iparams-lint.path" to the binary; then run "iparams-lint: Restart Server".'
    );
  }
  if (code === 'EACCES') {
    return (
      `iparams-lint: "${command}" is not executable. Point "iparams-lint.path" at the ` +
      'iparams-lint binary, then run "iparams-lint: Restart Server".'
    );
  }
  const detail = error instanceof Error ? error.message : String(error);
  return (
    `iparams-lint: the server "${command} lsp" did not start: ${detail}. ` +
    'Check "iparams-lint.path" and the iparams-lint output channel.'
  );
}

module.exports = { serverCommand, startedFrom, startFailure };
