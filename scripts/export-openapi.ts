/**
 * `npm run openapi`: writes the OpenAPI document the code produces to openapi/openapi.json, and
 * the roles table of docs/contract.md ("Roles") from the same app's route table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { formatOpenApiDocument, generateOpenApiDocument, OPENAPI_FILE } from '../src/openapi/document.js';
import { renderRoleTable, replaceRoleTable } from '../src/openapi/role-table.js';

const CONTRACT = 'docs/contract.md';
let table = '';
const doc = await generateOpenApiDocument((app) => {
  table = renderRoleTable(app.adminAuth.routes());
});
await writeFile(OPENAPI_FILE, formatOpenApiDocument(doc));
await writeFile(CONTRACT, replaceRoleTable(await readFile(CONTRACT, 'utf8'), table));
process.stdout.write(
  `wrote ${OPENAPI_FILE} (${Object.keys((doc.paths as object) ?? {}).length} paths) and the roles table of ${CONTRACT}\n`,
);
