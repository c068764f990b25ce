'use strict';
// The panel that shows an app's installation page beside the editor: its HTML, and the one
// message from the page it passes on. No `vscode` import, so that plain Node tests load it.

const path = require('path');

/** The commands each server answers (docs/editors.md, "The installation page beside the editor"). */
const PREVIEW_COMMAND = 'iparams-lint.preview';
const STOP_COMMAND = 'iparams-lint.stopPreview';

/**
 * The panel's HTML: the page at `url` (a preview on 127.0.0.1) in a frame filling the panel, and
 * a script that passes a click on a finding, sent by that page and no other, to the extension.
 * @param {string} url the page, `http://127.0.0.1:PORT/custom_configs`
 * @param {string} nonce the script's nonce, new for each HTML
 */
function panelHtml(url, nonce) {
  const page = new URL(url);
  if (page.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(page.hostname)) {
    throw new Error(`the preview must be on this machine, not ${page.origin}`);
  }
  const origin = page.origin;
  const policy = [
    "default-src 'none'",
    `frame-src ${origin}`,
    `script-src 'nonce-${nonce}'`,
    "style-src 'unsafe-inline'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<style>html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; background: #fff; }
iframe { border: 0; width: 100%; height: 100%; display: block; }</style>
</head>
<body>
<iframe src="${escapeAttribute(page.href)}" title="Installation page"></iframe>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
window.addEventListener('message', (event) => {
  if (event.origin !== ${JSON.stringify(origin)}) return;
  if (event.data && event.data.type === 'iparams-lint.reveal') vscode.postMessage(event.data);
});
</script>
</body>
</html>
`;
}

function escapeAttribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Where a message from the panel asks the editor to go, if it is a finding of the app shown (a
 * page may not open files elsewhere): its path, and its 0-based line and column.
 * @param {unknown} message
 * @param {(path: string) => boolean} inside whether a path is in the app's folder
 */
function revealOf(message, inside) {
  if (!message || typeof message !== 'object' || message.type !== 'iparams-lint.reveal') return null;
  const { path: file, line, column } = /** @type {any} */ (message);
  if (typeof file !== 'string' || !inside(file)) return null;
  if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1 || column < 1) return null;
  return { path: file, line: line - 1, column: column - 1 };
}

/**
 * The UTF-16 offset VS Code counts in a line for a column counted in characters, as the page
 * gives it: each character beyond the Basic Multilingual Plane (an emoji) takes two units.
 * @param {string} lineText
 * @param {number} characters 0-based
 */
function utf16Column(lineText, characters) {
  let units = 0;
  let counted = 0;
  for (const character of lineText) {
    if (counted === characters) break;
    units += character.length;
    counted += 1;
  }
  return units + Math.max(0, characters - counted);
}

/** Whether `file` is inside the folder `folder` (both absolute, in the platform's form). */
function isInside(folder, file, sep = path.sep) {
  const base = folder.endsWith(sep) ? folder : folder + sep;
  return file.startsWith(base);
}

module.exports = { PREVIEW_COMMAND, STOP_COMMAND, panelHtml, revealOf, utf16Column, isInside };
