'use strict';
// Copies the repository's JSON Schema of iparams.json (crates/iparams-lint/schemas/, the one
// `iparams-lint schema` prints and tests/docs.rs checks) into the extension before packaging:
// one source, never a hand-made duplicate. IPARAMS_LINT_SCHEMA names another source file.

const fs = require('fs');
const path = require('path');

const source =
  process.env.IPARAMS_LINT_SCHEMA ||
  path.resolve(__dirname, '..', '..', '..', 'crates', 'iparams-lint', 'schemas', 'iparams.schema.json');
const target = path.resolve(__dirname, '..', 'schemas', 'iparams.schema.json');

let text;
try {
  text = fs.readFileSync(source, 'utf8');
} catch (error) {
  console.error(
    `copy-schema: cannot read the schema ${source}: ${error.message}. Run this from ` +
      'editors/vscode in the repository, or set IPARAMS_LINT_SCHEMA to the schema file.',
  );
  process.exit(1);
}
try {
  JSON.parse(text);
} catch (error) {
  console.error(`copy-schema: ${source} is not JSON (${error.message}); fix it before packaging.`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, text);
console.log(`copy-schema: ${path.relative(process.cwd(), target)} from ${source}`);
