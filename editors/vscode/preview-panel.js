'use strict';
// *iparams-lint: Preview Installation Page*: the page of the app of the active file, served by
// that file's server (`iparams-lint.preview`, from the text the editor holds), in one panel
// beside the editor. The panel follows the active app, shows a finding's line when the page's
// finding is clicked, and stops its preview when it is closed.

const crypto = require('crypto');
const path = require('path');
const vscode = require('vscode');
const { PREVIEW_COMMAND, STOP_COMMAND, panelHtml, revealOf, utf16Column, isInside } = require('./webview');

class PreviewPanel {
  /**
   * @param {(uri: vscode.Uri) => import('vscode-languageclient/node').LanguageClient | undefined} clientOf
   *   the server of a file's workspace folder
   */
  constructor(clientOf) {
    this.clientOf = clientOf;
    /** @type {vscode.WebviewPanel | undefined} */
    this.panel = undefined;
    /** The app shown: its folder, page and server. */
    this.shown = undefined;
  }

  /**
   * Shows the page of the app of `target` (a URI, or its text as a code action passes it), or
   * of the active editor's file.
   * @param {vscode.Uri | string | undefined} target
   */
  async open(target) {
    const uri =
      typeof target === 'string'
        ? vscode.Uri.parse(target)
        : target instanceof vscode.Uri
          ? target
          : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      vscode.window.showInformationMessage('iparams-lint: open a file of an app to preview its installation page.');
      return;
    }
    const failure = await this.show(uri);
    if (failure) vscode.window.showErrorMessage(`iparams-lint: ${failure}`);
  }

  /** Follows the active editor to another app while the panel is open. @param {vscode.TextEditor | undefined} editor */
  async follow(editor) {
    if (!this.panel || !editor || editor.document.uri.scheme !== 'file') return;
    const file = editor.document.uri.fsPath;
    if (this.shown && isInside(this.shown.app, file)) return;
    // A file of no app (or of no server) leaves the page as it is.
    await this.show(editor.document.uri);
  }

  /** Asks the file's server for its app's page and shows it; a failure's message otherwise. @param {vscode.Uri} uri */
  async show(uri) {
    const client = this.clientOf(uri);
    if (!client) return `no iparams-lint server runs for ${uri.fsPath}: it is in no app of an open workspace folder`;
    let answer;
    try {
      answer = await client.sendRequest('workspace/executeCommand', {
        command: PREVIEW_COMMAND,
        arguments: [uri.toString(), { open: false }],
      });
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    const previous = this.shown;
    if (previous && previous.app !== answer.app) this.stop(previous);
    if (!this.panel) this.panel = this.createPanel();
    if (!previous || previous.url !== answer.url) {
      this.panel.webview.html = panelHtml(answer.url, crypto.randomBytes(16).toString('base64'));
    }
    this.panel.title = `Installation page: ${path.basename(answer.app)}`;
    this.shown = { app: answer.app, url: answer.url, client };
    this.panel.reveal(undefined, true);
    return undefined;
  }

  createPanel() {
    const panel = vscode.window.createWebviewPanel(
      'iparams-lint.preview',
      'Installation page',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
    );
    panel.webview.onDidReceiveMessage((message) => this.reveal(message));
    panel.onDidDispose(() => {
      const shown = this.shown;
      this.panel = undefined;
      this.shown = undefined;
      if (shown) this.stop(shown);
    });
    return panel;
  }

  /** Shows the line of a finding clicked on the page, in the editor beside the panel. */
  async reveal(message) {
    const shown = this.shown;
    const at = shown && revealOf(message, (file) => isInside(shown.app, file));
    if (!at) return;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(at.path));
    const line = Math.min(at.line, document.lineCount - 1);
    const position = new vscode.Position(line, utf16Column(document.lineAt(line).text, at.column));
    const column = this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    await vscode.window.showTextDocument(document, {
      viewColumn: column,
      selection: new vscode.Range(position, position),
    });
  }

  /** Stops the preview of an app no longer shown (a server that has stopped has none). */
  stop(shown) {
    if (!shown.client.isRunning()) return;
    shown.client
      .sendRequest('workspace/executeCommand', { command: STOP_COMMAND, arguments: [vscode.Uri.file(shown.app).toString()] })
      .catch(() => {});
  }

  dispose() {
    this.panel?.dispose();
  }
}

module.exports = { PreviewPanel };
