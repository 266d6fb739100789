/**
 * `npm run docs:config`: renders docs/configuration.md's table from `.env.example`
 * (the one place each variable is described), between the config markers.
 * A test fails when the README's table is not what this produces.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { renderConfigTable, replaceConfigTable } from './lib/config-table.js';

const env = await readFile('.env.example', 'utf8');
const doc = await readFile('docs/configuration.md', 'utf8');
await writeFile('docs/configuration.md', replaceConfigTable(doc, renderConfigTable(env)));
process.stdout.write('docs/configuration.md table updated\n');
