'use strict';
// Runs under plain Node (`npm test`): VS Code itself cannot be started here, so these check what
// can be checked without it — the server command built from the setting, and that package.json
// and extension.js name the same command, settings and files.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const { serverCommand, startedFrom, startFailure } = require('../server-command');
const { APP_FILES, MANIFESTS, MANIFESTS_LOOKED_AT, manifestIsOfApp, selectorOf } = require('../documents');
const { PREVIEW_COMMAND, STOP_COMMAND, panelHtml, revealOf, utf16Column, isInside } = require('../webview');

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const extension = fs.readFileSync(path.join(root, 'extension.js'), 'utf8');

test('a set path wins over PATH and the bundled binary, started as `lsp --stdio`', () => {
  const where = { extensionFolder: '/nowhere', searchPath: '' };
  for (const configured of ['iparams-lint', ' iparams-lint ']) {
    assert.deepEqual(serverCommand(configured, '/work/app', where), {
      command: 'iparams-lint',
      args: ['lsp', '--stdio'],
      source: 'setting',
    });
  }
});

test('without a setting: iparams-lint on PATH, else the bundled binary, else the bare name', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'iparams-lint-choice-'));
  try {
    const executable = (file) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '#!/bin/sh\n');
      fs.chmodSync(file, 0o755);
      return file;
    };
    const name = process.platform === 'win32' ? 'iparams-lint.exe' : 'iparams-lint';
    const extensionFolder = path.join(scratch, 'extension');
    const inside = executable(path.join(extensionFolder, 'bin', name));
    const installed = executable(path.join(scratch, 'installed', name));
    const empty = path.join(scratch, 'empty');
    fs.mkdirSync(empty);
    const searchPath = [empty, path.dirname(installed)].join(path.delimiter);

    for (const configured of [undefined, '', '  ']) {
      const onPath = serverCommand(configured, '/work/app', { extensionFolder, searchPath });
      assert.deepEqual(onPath, { command: installed, args: ['lsp', '--stdio'], source: 'PATH' });
      assert.match(startedFrom(onPath), /from PATH/);
    }
    const own = serverCommand('', '/work/app', { extensionFolder, searchPath: empty });
    assert.deepEqual(own, { command: inside, args: ['lsp', '--stdio'], source: 'bundled' });
    assert.match(startedFrom(own), /the extension's own copy/);
    const none = serverCommand('', '/work/app', { extensionFolder: empty, searchPath: empty });
    assert.equal(none.source, 'none');
    assert.equal(none.command, 'iparams-lint');
    // A set path is the user's choice even when PATH and the extension have one.
    assert.equal(serverCommand('/opt/x', undefined, { extensionFolder, searchPath }).command, '/opt/x');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

test('the workspace folder’s own install comes after the setting and before PATH', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'iparams-lint-project-'));
  try {
    const name = process.platform === 'win32' ? 'iparams-lint.cmd' : 'iparams-lint';
    const project = path.join(scratch, 'node_modules', '.bin', name);
    fs.mkdirSync(path.dirname(project), { recursive: true });
    fs.writeFileSync(project, '#!/bin/sh\n');
    fs.chmodSync(project, 0o755);
    const installed = path.join(scratch, 'installed');
    fs.mkdirSync(installed);
    fs.writeFileSync(path.join(installed, 'iparams-lint'), '#!/bin/sh\n');
    fs.chmodSync(path.join(installed, 'iparams-lint'), 0o755);
    const where = { extensionFolder: scratch, searchPath: installed };
    const chosen = serverCommand('', scratch, where);
    assert.deepEqual(chosen, { command: project, args: ['lsp', '--stdio'], source: 'project' });
    assert.match(startedFrom(chosen), /the workspace's node_modules/);
    assert.equal(serverCommand('/opt/x', scratch, where).source, 'setting');
    // Another folder has no install of its own: PATH's.
    assert.equal(serverCommand('', path.join(scratch, 'installed'), where).source, 'PATH');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

test('each folder’s server gets the scripts, pages and JSON of its own folder', () => {
  const selector = selectorOf('/work/apps/');
  assert.ok(selector.every((s) => s.scheme === 'file' && s.pattern.startsWith('/work/apps/')));
  const languages = selector.map((s) => s.language);
  for (const language of ['json', 'javascript', 'typescript', 'typescriptreact', 'html']) {
    assert.ok(languages.includes(language), language);
  }
  assert.ok(selector.some((s) => s.pattern === '/work/apps/**/config/{iparams,requests}.json'));
  assert.equal(selectorOf('C:\\work\\apps')[3].pattern, 'C:/work/apps/**/*');
  // A folder holds apps when it has either installation page's source, or a manifest.json
  // beside a config/ folder; the extension activates on the same files.
  assert.equal(APP_FILES, '**/config/{iparams.json,iparams.html}');
  assert.equal(MANIFESTS, '**/manifest.json');
  for (const glob of [APP_FILES.replace('{iparams.json,iparams.html}', 'iparams.json'), MANIFESTS]) {
    assert.ok(manifest.activationEvents.includes(`workspaceContains:${glob}`), glob);
  }
  assert.match(extension, /onDidChangeWorkspaceFolders/);
  assert.match(extension, /workspaceFolder: folder/);
});

test('a manifest.json is an app’s only with a config/ folder beside it', async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'iparams-lint-manifests-'));
  const make = (relative, text) => {
    fs.mkdirSync(path.dirname(path.join(work, relative)), { recursive: true });
    if (text !== undefined) fs.writeFileSync(path.join(work, relative), text);
  };
  make('app/manifest.json', '{}');
  make('app/config/requests.json', '{}');
  make('app/public/manifest.json', '{}');
  // A browser extension's manifest.json, beside a file named config.
  make('extension/manifest.json', '{}');
  make('extension/config', '');
  const isFolder = (candidate) => fs.promises.stat(candidate).then((s) => s.isDirectory(), () => false);
  try {
    assert.equal(await manifestIsOfApp(path.join(work, 'app/manifest.json'), isFolder), true);
    assert.equal(await manifestIsOfApp(path.join(work, 'app/public/manifest.json'), isFolder), false);
    assert.equal(await manifestIsOfApp(path.join(work, 'extension/manifest.json'), isFolder), false);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  assert.ok(MANIFESTS_LOOKED_AT >= 10);
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
    .concat(extension.includes('registerCommand(PREVIEW_COMMAND,') ? [PREVIEW_COMMAND] : [])
    .sort();
  assert.deepEqual(registered, contributed);
  assert.match(extension, /const ID = 'iparams-lint';/);
});

test('the settings the client reads are contributed, with their defaults', () => {
  const properties = manifest.contributes.configuration.properties;
  assert.equal(properties['iparams-lint.path'].default, '');
  // vscode-languageclient reads `<client id>.trace.server` by itself.
  assert.deepEqual(properties['iparams-lint.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.match(extension, /getConfiguration\(ID, folder\.uri\)\.get\('path'\)/);
  assert.match(extension, /extensionFolder = context\.extensionPath/);
});

test('the schema is mapped to config/iparams.json and copied from the repository', () => {
  assert.deepEqual(manifest.contributes.jsonValidation, [
    { fileMatch: '**/config/iparams.json', url: './schemas/iparams.schema.json' },
  ]);
  assert.match(manifest.scripts['vscode:prepublish'], /copy-schema/);
  const schema =
    process.env.IPARAMS_LINT_SCHEMA || path.join(root, '..', '..', 'crates', 'iparams-lint', 'schemas', 'iparams.schema.json');
  assert.ok(fs.existsSync(schema), `${schema} is the schema the package copies`);
  assert.deepEqual(manifest.activationEvents, [
    'workspaceContains:**/config/iparams.json',
    'workspaceContains:**/config/iparams.html',
    'workspaceContains:**/manifest.json',
  ]);
});

test('the preview commands are the ones the server lists', () => {
  const repository = process.env.IPARAMS_LINT_REPO || path.join(root, '..', '..');
  const server = fs.readFileSync(
    path.join(repository, 'crates', 'iparams-lint', 'src', 'lsp', 'preview.rs'),
    'utf8',
  );
  assert.match(server, new RegExp(`pub const COMMAND: &str = "${PREVIEW_COMMAND}";`));
  assert.match(server, new RegExp(`pub const STOP_COMMAND: &str = "${STOP_COMMAND}";`));
  // The button in the editor's title bar, on the files that define the page.
  assert.deepEqual(manifest.contributes.menus['editor/title'], [
    {
      command: PREVIEW_COMMAND,
      when: 'resourceFilename == iparams.json || resourceFilename == iparams.html',
      group: 'navigation',
    },
  ]);
});

test('the panel frames the page on this machine only, and passes on its messages only', () => {
  const html = panelHtml('http://127.0.0.1:4567/custom_configs', 'n0nce');
  assert.match(html, /<iframe src="http:\/\/127\.0\.0\.1:4567\/custom_configs"/);
  assert.match(html, /default-src 'none'; frame-src http:\/\/127\.0\.0\.1:4567; script-src 'nonce-n0nce'/);
  assert.match(html, /event\.origin !== "http:\/\/127\.0\.0\.1:4567"/);
  for (const elsewhere of ['https://127.0.0.1:4567/', 'http://example.com/custom_configs', 'http://10.0.0.1:80/']) {
    assert.throws(() => panelHtml(elsewhere, 'n'), /on this machine/, elsewhere);
  }
});

test('a click on a finding reveals a file of the app shown, and nothing else', () => {
  const app = '/work/apps/hr';
  const inside = (file) => isInside(app, file, '/');
  const message = { type: 'iparams-lint.reveal', path: '/work/apps/hr/config/iparams.json', line: 5, column: 13 };
  assert.deepEqual(revealOf(message, inside), { path: message.path, line: 4, column: 12 });
  for (const bad of [
    { ...message, path: '/etc/passwd' },
    { ...message, path: '/work/apps/hr-other/config/iparams.json' },
    { ...message, type: 'other' },
    { ...message, line: 0 },
    { ...message, column: 'x' },
    null,
    'iparams-lint.reveal',
  ]) {
    assert.equal(revealOf(bad, inside), null, JSON.stringify(bad));
  }
});

test('a column the page counts in characters lands on the same character in VS Code', () => {
  const line = '  "d\u00e9j\u00e0 \u{1F642}\u{1F642}": { "type": "tex" }';
  const characters = [...line].indexOf('{');
  assert.equal(utf16Column(line, characters), line.indexOf('{'));
  assert.equal(utf16Column(line, characters) - characters, 2, 'two emoji, one unit more each');
  assert.equal(utf16Column('plain', 3), 3);
  assert.equal(utf16Column('ab', 5), 5, 'past the end stays past the end');
});
