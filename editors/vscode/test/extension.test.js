'use strict';
// Runs under plain Node (`npm test`): VS Code itself cannot be started here, so these check what
// can be checked without it — the server command built from the setting, and that package.json
// and extension.js name the same command, settings and files.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const { serverCommand, startFailure } = require('../server-command');

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const extension = fs.readFileSync(path.join(root, 'extension.js'), 'utf8');

test('the default server is iparams-lint on PATH, started as `lsp --stdio`', () => {
  for (const configured of [undefined, '', '  ', 'iparams-lint']) {
    assert.deepEqual(serverCommand(configured, '/work/app'), {
      command: 'iparams-lint',
      args: ['lsp', '--stdio'],
    });
  }
});

test('a relative path with a folder is the workspace folder’s, an absolute one is kept', () => {
  assert.equal(
    serverCommand('./target/release/iparams-lint', '/work/app').command,
    path.resolve('/work/app/target/release/iparams-lint'),
  );
  assert.equal(serverCommand('/opt/bin/iparams-lint', '/work/app').command, '/opt/bin/iparams-lint');
  assert.equal(serverCommand('bin/iparams-lint', undefined).command, 'bin/iparams-lint');
  assert.equal(
    serverCommand('~/.cargo/bin/iparams-lint', '/work/app').command,
    path.join(os.homedir(), '.cargo/bin/iparams-lint'),
  );
});

test('a server that cannot start is explained with what to do', () => {
  const missing = startFailure('/nowhere/iparams-lint', Object.assign(new Error('spawn'), { code: 'ENOENT' }));
  assert.match(missing, /"\/nowhere\/iparams-lint" was not found/);
  assert.match(missing, /iparams-lint\.path/);
  assert.match(missing, /Restart Server/);
  assert.match(startFailure('x', new Error('boom')), /did not start: boom/);
});

test('every contributed command is registered, and only those', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  const registered = [...extension.matchAll(/registerCommand\(`\$\{ID\}\.([\w.-]+)`/g)]
    .map((m) => `${manifest.name}.${m[1]}`)
    .sort();
  assert.deepEqual(registered, contributed);
  assert.match(extension, /const ID = 'iparams-lint';/);
});

test('the settings the client reads are contributed, with their defaults', () => {
  const properties = manifest.contributes.configuration.properties;
  assert.equal(properties['iparams-lint.path'].default, 'iparams-lint');
  // vscode-languageclient reads `<client id>.trace.server` by itself.
  assert.deepEqual(properties['iparams-lint.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.match(extension, /getConfiguration\(ID\)\.get\('path'\)/);
});

test('the schema is mapped to config/iparams.json and copied from the repository', () => {
  assert.deepEqual(manifest.contributes.jsonValidation, [
    { fileMatch: '**/config/iparams.json', url: './schemas/iparams.schema.json' },
  ]);
  assert.match(manifest.scripts['vscode:prepublish'], /copy-schema/);
  const schema =
    process.env.IPARAMS_LINT_SCHEMA || path.join(root, '..', '..', 'schemas', 'iparams.schema.json');
  assert.ok(fs.existsSync(schema), `${schema} is the schema the package copies`);
  assert.deepEqual(manifest.activationEvents, ['workspaceContains:**/config/iparams.json']);
});
