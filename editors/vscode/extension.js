'use strict';
// The VS Code client of `iparams-lint lsp`: starts the server over stdio for the files of apps
// (config/iparams.json, config/requests.json, manifest.json, the app's scripts and templates)
// and restarts it on demand or when its path changes. Everything else is the server's. Which
// binary it starts (setting, PATH, or the one inside the extension) is server-command.js's.

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { serverCommand, startedFrom, startFailure } = require('./server-command');

const ID = 'iparams-lint';

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let output;

// JSON files the server checks, by path; scripts and templates by language (the server tells
// an app's file from another by the manifest.json and config/ above it).
const DOCUMENTS = [
  { scheme: 'file', language: 'json', pattern: '**/config/{iparams,requests}.json' },
  { scheme: 'file', language: 'jsonc', pattern: '**/config/{iparams,requests}.json' },
  { scheme: 'file', language: 'json', pattern: '**/manifest.json' },
  { scheme: 'file', language: 'javascript' },
  { scheme: 'file', language: 'html' },
];

function firstWorkspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

/** @type {string} */
let extensionFolder;

async function start() {
  const configured = vscode.workspace.getConfiguration(ID).get('path');
  const chosen = serverCommand(configured, firstWorkspaceFolder(), { extensionFolder });
  const { command, args } = chosen;
  output.appendLine(startedFrom(chosen));
  const executable = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    ID,
    'iparams-lint',
    { run: executable, debug: executable },
    {
      documentSelector: DOCUMENTS,
      outputChannel: output,
      // No `synchronize.fileEvents`: the server registers the watch of .iparams-lint.toml and
      // manifest.json itself (client/registerCapability), so events would come twice.
    },
  );
  try {
    await client.start();
  } catch (error) {
    const failed = client;
    client = undefined;
    // A client that never started has nothing to stop; disposing it releases its watchers.
    failed.dispose().catch(() => {});
    vscode.window.showErrorMessage(startFailure(command, error));
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

async function restart() {
  await stop();
  await start();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('iparams-lint');
  extensionFolder = context.extensionPath;
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand(`${ID}.restart`, restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${ID}.path`)) {
        restart();
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
