'use strict';
// The VS Code client of `iparams-lint lsp`: one server over stdio per workspace folder that holds
// apps (config/iparams.json or config/iparams.html below it, or a manifest.json beside a config/
// folder), for the files of its apps (iparams.json, requests.json, manifest.json, the scripts,
// templates and pages), restarted on demand or when its path changes, started and stopped as
// folders come and go; and the command that shows an app's installation page beside the editor
// (preview-panel.js). Everything else is the server's. Which binary it starts (setting, the
// workspace's node_modules, PATH, or the one inside the extension) is server-command.js's; which
// documents each gets, documents.js's.

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { serverCommand, startedFrom, startFailure } = require('./server-command');
const { APP_FILES, MANIFESTS, MANIFESTS_LOOKED_AT, manifestIsOfApp, selectorOf } = require('./documents');
const { PreviewPanel } = require('./preview-panel');
const { PREVIEW_COMMAND } = require('./webview');

const ID = 'iparams-lint';

/** The running clients, by workspace folder URI. @type {Map<string, LanguageClient>} */
const clients = new Map();
/** @type {vscode.OutputChannel | undefined} */
let output;

/** @type {string} */
let extensionFolder;
/** @type {PreviewPanel | undefined} */
let previewPanel;

/** The server of the workspace folder `uri` is in. @param {vscode.Uri} uri */
function clientOf(uri) {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  return folder && clients.get(folder.uri.toString());
}

/** Whether there is a folder at `path`. @param {string} path */
async function isFolder(path) {
  try {
    return ((await vscode.workspace.fs.stat(vscode.Uri.file(path))).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

/** @param {vscode.WorkspaceFolder} folder */
async function holdsApps(folder) {
  const find = (glob, most) =>
    vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), '**/node_modules/**', most);
  if ((await find(APP_FILES, 1)).length > 0) return true;
  for (const manifest of await find(MANIFESTS, MANIFESTS_LOOKED_AT)) {
    if (await manifestIsOfApp(manifest.fsPath, isFolder)) return true;
  }
  return false;
}

/** Starts the server of `folder` when it holds apps and has none yet. @param {vscode.WorkspaceFolder} folder */
async function start(folder) {
  const key = folder.uri.toString();
  if (clients.has(key) || !(await holdsApps(folder))) return;
  const configured = vscode.workspace.getConfiguration(ID, folder.uri).get('path');
  const chosen = serverCommand(configured, folder.uri.fsPath, { extensionFolder });
  const { command, args } = chosen;
  output.appendLine(`${folder.name}: ${startedFrom(chosen)}`);
  // No `transport`: the client then speaks over the process's stdio as it is; with
  // `TransportKind.stdio` it would add a second `--stdio` to `args`, which the server refuses.
  const executable = { command, args, options: { cwd: folder.uri.fsPath } };
  const client = new LanguageClient(
    ID,
    clients.size === 0 ? 'iparams-lint' : `iparams-lint (${folder.name})`,
    { run: executable, debug: executable },
    {
      documentSelector: selectorOf(folder.uri.fsPath),
      workspaceFolder: folder,
      outputChannel: output,
      // No `synchronize.fileEvents`: the server registers the watch of .iparams-lint.toml and
      // manifest.json itself (client/registerCapability), so events would come twice.
    },
  );
  // Every server lists the preview's commands, and VS Code takes each command name once: the
  // extension registers them itself (activate) and sends each to the server of the file's
  // folder, so no client may register them per server (the second would fail to start).
  const commands = client.getFeature('workspace/executeCommand');
  if (commands) commands.initialize = () => {};
  clients.set(key, client);
  try {
    await client.start();
  } catch (error) {
    clients.delete(key);
    // A client that never started has nothing to stop; disposing it releases its watchers.
    client.dispose().catch(() => {});
    vscode.window.showErrorMessage(startFailure(command, error));
  }
}

/** Stops the server of the folder with URI `key`. @param {string} key */
async function stop(key) {
  const running = clients.get(key);
  clients.delete(key);
  if (running) {
    await running.stop();
  }
}

async function startAll() {
  for (const folder of vscode.workspace.workspaceFolders || []) {
    await start(folder);
  }
}

async function stopAll() {
  await Promise.all([...clients.keys()].map(stop));
}

async function restart() {
  await stopAll();
  await startAll();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('iparams-lint');
  extensionFolder = context.extensionPath;
  previewPanel = new PreviewPanel(clientOf);
  context.subscriptions.push(
    output,
    previewPanel,
    vscode.commands.registerCommand(`${ID}.restart`, restart),
    // Also what the server's code action *Preview the installation page* runs.
    vscode.commands.registerCommand(PREVIEW_COMMAND, (target) => previewPanel.open(target)),
    vscode.window.onDidChangeActiveTextEditor((editor) => previewPanel.follow(editor)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${ID}.path`)) {
        restart();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(async (event) => {
      for (const folder of event.removed) await stop(folder.uri.toString());
      for (const folder of event.added) await start(folder);
    }),
  );
  await startAll();
}

function deactivate() {
  return stopAll();
}

module.exports = { activate, deactivate };
