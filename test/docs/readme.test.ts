import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { renderConfigTable, replaceConfigTable } from '../../scripts/lib/config-table.js';

test("the README's configuration table is generated from .env.example (run `npm run docs:config`)", async () => {
  const [env, readme] = await Promise.all([readFile('.env.example', 'utf8'), readFile('README.md', 'utf8')]);
  const table = renderConfigTable(env);
  expect(table).toContain('| `DATA_DIR` | `./data` |');
  expect(readme).toBe(replaceConfigTable(readme, table));
});

test('the README shows the two commands', async () => {
  const readme = await readFile('README.md', 'utf8');
  expect(readme).toContain('npm install && npm start');
  expect(readme).toContain('npm test');
});
