'use strict';
// Which program the extension starts, from the `iparams-lint.path` setting. Kept apart from
// extension.js (no `vscode` import) so that it runs under plain Node in test/.

const os = require('os');
const path = require('path');

/**
 * The executable and arguments of the server.
 * @param {string | undefined} configured the `iparams-lint.path` setting
 * @param {string | undefined} workspaceFolder the first workspace folder's path, if any
 * @returns {{command: string, args: string[]}}
 */
function serverCommand(configured, workspaceFolder) {
  let command = (configured || '').trim() || 'iparams-lint';
  if (command === '~' || command.startsWith('~/')) {
    command = path.join(os.homedir(), command.slice(1));
  }
  // A bare name is looked up on PATH by the operating system; a relative path with a folder in
  // it means the workspace's copy (`./target/release/iparams-lint`), not the editor's cwd.
  const hasFolder = command.includes('/') || command.includes(path.sep);
  if (hasFolder && !path.isAbsolute(command) && workspaceFolder) {
    command = path.resolve(workspaceFolder, command);
  }
  return { command, args: ['lsp', '--stdio'] };
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
      '(`cargo install --git https://github.com/iparams-lint/iparams-lint iparams-lint`) or set ' +
      '"iparams-lint.path" to the binary, then run "iparams-lint: Restart Server".'
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

module.exports = { serverCommand, startFailure };
