'use strict';
// Which documents each server gets, and what makes a workspace folder hold apps. Kept apart from
// extension.js (no `vscode` import) so that it runs under plain Node in test/.

const path = require('path');

/** What makes a folder hold an app: either installation page's source. */
const APP_FILES = '**/config/{iparams.json,iparams.html}';
/**
 * An app with neither (a manifest.json beside a config/ folder) is an app too; the glob alone
 * cannot tell it from a browser extension's or a web app's manifest.json, so each one found is
 * looked at (manifestIsOfApp).
 */
const MANIFESTS = '**/manifest.json';
/** How many manifest.json files a folder's first look reads at most. */
const MANIFESTS_LOOKED_AT = 50;

/**
 * Whether the manifest.json at `manifest` is an app's: a config/ folder beside it.
 * @param {string} manifest its path
 * @param {(path: string) => Promise<boolean>} isFolder
 */
async function manifestIsOfApp(manifest, isFolder) {
  return isFolder(path.join(path.dirname(manifest), 'config'));
}

// JSON files the server checks, by path; scripts, templates and pages by language (the server
// tells an app's file from another by the manifest.json and config/ above it).
const DOCUMENTS = [
  { language: 'json', pattern: '**/config/{iparams,requests}.json' },
  { language: 'jsonc', pattern: '**/config/{iparams,requests}.json' },
  { language: 'json', pattern: '**/manifest.json' },
  { language: 'javascript' },
  { language: 'javascriptreact' },
  { language: 'typescript' },
  { language: 'typescriptreact' },
  { language: 'html' },
];

/**
 * The document selector of the server of the workspace folder at `root`: the documents above,
 * in that folder only, so that each folder's server gets its own files.
 * @param {string} root the folder's path
 */
function selectorOf(root) {
  const folder = root.replace(/\\/g, '/').replace(/\/$/, '');
  return DOCUMENTS.map(({ language, pattern }) => ({
    scheme: 'file',
    language,
    pattern: `${folder}/${pattern || '**/*'}`,
  }));
}

module.exports = { APP_FILES, MANIFESTS, MANIFESTS_LOOKED_AT, DOCUMENTS, manifestIsOfApp, selectorOf };
