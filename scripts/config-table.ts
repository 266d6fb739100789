/**
 * `npm run docs:config`: renders the README's configuration table from `.env.example`
 * (the one place each variable is described), between the config markers.
 * A test fails when the README's table is not what this produces.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { renderConfigTable, replaceConfigTable } from './lib/config-table.js';

const env = await readFile('.env.example', 'utf8');
const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', replaceConfigTable(readme, renderConfigTable(env)));
process.stdout.write('README.md configuration table updated\n');
