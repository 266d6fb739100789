/** `npm run openapi`: writes the OpenAPI document the code produces to openapi/openapi.json. */
import { writeFile } from 'node:fs/promises';
import { formatOpenApiDocument, generateOpenApiDocument, OPENAPI_FILE } from '../src/openapi/document.js';

const doc = await generateOpenApiDocument();
await writeFile(OPENAPI_FILE, formatOpenApiDocument(doc));
process.stdout.write(`wrote ${OPENAPI_FILE} (${Object.keys((doc.paths as object) ?? {}).length} paths)\n`);
