'use strict';
// Which documents each server gets, and what makes a workspace folder hold apps. Kept apart from
// extension.js (no `vscode` import) so that it runs under plain Node in test/.

/** What makes a folder hold an app: either installation page's source. */
const APP_FILES = '**/config/{iparams.json,iparams.html}';

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

module.exports = { APP_FILES, DOCUMENTS, selectorOf };
