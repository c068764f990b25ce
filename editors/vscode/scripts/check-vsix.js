'use strict';
// Checks a packaged .vsix (a zip): it holds the client, its manifest, the schema that
// package.json's jsonValidation points at, and the client's runtime dependency; it holds no
// test, script or development dependency. Prints the entries and the size on success.
// `node scripts/check-vsix.js FILE [ENTRY...]`: each ENTRY (such as `bin/iparams-lint` in a
// platform-specific package) must be in the extension too.
// Reads the zip's central directory itself: Node has no zip reader, and this needs no package.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

/** The names of a zip file's entries, from its central directory. */
function zipEntries(buffer) {
  // The end-of-central-directory record: signature 0x06054b50, in the last 22 + 65535 bytes.
  let end = -1;
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 0xffff); i--) {
    if (buffer.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('no end of central directory: not a zip file');
  const count = buffer.readUInt16LE(end + 10);
  let offset = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buffer.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`central directory entry ${n} at byte ${offset} has a wrong signature`);
    }
    const method = buffer.readUInt16LE(offset + 10);
    const compressed = buffer.readUInt32LE(offset + 20);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const local = buffer.readUInt32LE(offset + 42);
    const name = buffer.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.push({ name, method, compressed, local });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The uncompressed content of one entry. */
function readEntry(buffer, entry) {
  const nameLength = buffer.readUInt16LE(entry.local + 26);
  const extraLength = buffer.readUInt16LE(entry.local + 28);
  const start = entry.local + 30 + nameLength + extraLength;
  const data = buffer.subarray(start, start + entry.compressed);
  if (entry.method === 0) return data;
  if (entry.method === 8) return zlib.inflateRawSync(data);
  throw new Error(`${entry.name}: compression method ${entry.method} is not stored or deflate`);
}

function check(file, required = []) {
  const buffer = fs.readFileSync(file);
  const entries = zipEntries(buffer);
  const names = new Set(entries.map((e) => e.name));
  const problems = [];
  const must = [
    'extension/package.json',
    'extension/extension.js',
    'extension/server-command.js',
    'extension/documents.js',
    'extension/preview-panel.js',
    'extension/webview.js',
    'extension/schemas/iparams.schema.json',
    'extension/readme.md',
    'extension/LICENSE.txt',
    'extension/node_modules/vscode-languageclient/package.json',
    'extension.vsixmanifest',
    ...required.map((entry) => `extension/${entry}`),
  ];
  for (const name of must) {
    if (!names.has(name)) problems.push(`${name} is missing`);
  }
  for (const name of names) {
    if (
      /^extension\/(test|scripts)\//.test(name) ||
      /^extension\/node_modules\/[^/]+$/.test(name) ||
      name.includes('node_modules/@vscode/vsce/')
    ) {
      problems.push(`${name} should not be packaged (see .vscodeignore)`);
    }
  }
  if (problems.length === 0) {
    const manifest = JSON.parse(
      readEntry(buffer, entries.find((e) => e.name === 'extension/package.json')),
    );
    for (const rule of manifest.contributes.jsonValidation) {
      const target = path.posix.join('extension', rule.url);
      if (!names.has(target)) problems.push(`jsonValidation points at ${rule.url}, not packaged`);
    }
    const schema = readEntry(
      buffer,
      entries.find((e) => e.name === 'extension/schemas/iparams.schema.json'),
    ).toString('utf8');
    const repoSchema = process.env.IPARAMS_LINT_SCHEMA
      ? fs.readFileSync(process.env.IPARAMS_LINT_SCHEMA, 'utf8')
      : undefined;
    if (repoSchema !== undefined && repoSchema !== schema) {
      problems.push('the packaged schema differs from the repository schema');
    }
    JSON.parse(schema);
  }
  return { entries, size: buffer.length, problems };
}

if (require.main === module) {
  const file = process.argv[2] || 'iparams-lint.vsix';
  let result;
  try {
    result = check(file, process.argv.slice(3));
  } catch (error) {
    console.error(`check-vsix: ${file}: ${error.message}`);
    process.exit(1);
  }
  if (result.problems.length > 0) {
    console.error(`check-vsix: ${file}:\n  ${result.problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`check-vsix: ${file}: ${result.entries.length} entries, ${result.size} bytes`);
}

module.exports = { check, zipEntries };
