/**
 * Route folders depend on services and on src/routes/common, never on each other: a helper
 * two areas need lives in common/ (DEVELOPERS.md, "Layout").
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';

const ROUTES = 'src/routes';

test('no route folder imports from another route folder (only from ../common)', async () => {
  const crossings: string[] = [];
  // The folders are the areas; src/routes/index.ts (the list app.ts registers) is none.
  const areas = (await readdir(ROUTES, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  for (const area of areas) {
    for (const file of await readdir(path.join(ROUTES, area), { recursive: true })) {
      if (!file.endsWith('.ts')) continue;
      const text = await readFile(path.join(ROUTES, area, file), 'utf8');
      for (const m of text.matchAll(/from '(\.\.\/[^']+)'/g)) {
        const target = path.normalize(path.join(ROUTES, area, path.dirname(file), m[1] as string));
        const rel = path.relative(ROUTES, target);
        if (rel.startsWith('..')) continue; // outside src/routes: services, schemas, domain
        const [other] = rel.split(path.sep);
        if (other !== area && other !== 'common') crossings.push(`${area}/${file} → ${rel}`);
      }
    }
  }
  expect(crossings).toEqual([]);
  expect((await readdir(ROUTES)).includes('common')).toBe(true);
});
