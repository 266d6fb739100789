/**
 * The repository stands on its own: no file cites a contract kept outside it. Decisions
 * are cited by their section in docs/contract.md (DEVELOPERS.md, "Code").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const ROOTS = ['src', 'web/src', 'test', 'bench', 'scripts', 'docs'];
const TOP_FILES = ['README.md', 'DEVELOPERS.md', 'SECURITY.md', '.env.example', 'Dockerfile'];
const TEXT = /\.(ts|tsx|mts|mjs|js|css|html|md|json)$/;
// Built from pieces so that this file doesn't match itself.
const OUTSIDE = new RegExp(['SPEC ' + '§', '\\.\\./' + 'shared/(SPEC|NOTES|seed)', 'seed/' + 'interface'].join('|'));

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && TEXT.test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

test('no file of the repository cites a document outside it', () => {
  const files = [...ROOTS.flatMap(filesUnder), ...TOP_FILES];
  expect(files.length).toBeGreaterThan(100);
  const citing = files.filter((f) => OUTSIDE.test(readFileSync(f, 'utf8')));
  expect(citing).toEqual([]);
});
