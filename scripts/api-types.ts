/**
 * `npm run api-types`: writes the browser app's API types (web/src/lib/api-schema.ts) from
 * openapi/openapi.json. With `--check` (part of `npm run typecheck`) it writes nothing and
 * fails when the file is not current.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { API_TYPES_FILE, OPENAPI_FILE, renderApiTypes } from './lib/api-types.js';

const wanted = await renderApiTypes(await readFile(OPENAPI_FILE, 'utf8'));
if (process.argv.includes('--check')) {
  const current = await readFile(API_TYPES_FILE, 'utf8').catch(() => '');
  if (current !== wanted) {
    process.stderr.write(`${API_TYPES_FILE} is not what ${OPENAPI_FILE} gives: run \`npm run api-types\`\n`);
    process.exit(1);
  }
} else {
  await writeFile(API_TYPES_FILE, wanted);
  process.stdout.write(`wrote ${API_TYPES_FILE}\n`);
}
