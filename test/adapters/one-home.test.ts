/**
 * One adapter per outside library (docs/architecture.md, "Outside libraries"): each library
 * src uses is imported by one module (or, for a store engine, from inside one folder), so a change of library, or of how one is called, is a change in one
 * place. The framework and small language helpers are imported where they are needed.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';

const SRC = 'src';

/** The framework and helpers with no outside system behind them: used anywhere. */
const FRAMEWORK = new Set([
  'fastify',
  'fastify-plugin',
  'fastify-type-provider-zod',
  '@fastify/cors',
  '@fastify/rate-limit',
  '@fastify/static',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'zod',
  'pino',
  'lru-cache',
  'p-limit',
  'close-with-grace',
  'cli-progress',
  'esbuild',
]);

/** Libraries whose adapter is a folder rather than one file. */
const ADAPTER_FOLDERS: Record<string, string> = {
  'better-sqlite3': 'src/services/store/engines/sqlite/',
  pg: 'src/services/store/engines/postgres/',
};

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)'([^'.][^']*)'/g;

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

async function importersByLibrary(): Promise<Map<string, Set<string>>> {
  const byLibrary = new Map<string, Set<string>>();
  for (const file of await readdir(SRC, { recursive: true })) {
    if (!file.endsWith('.ts')) continue;
    const rel = path.join(SRC, file).split(path.sep).join('/');
    const text = await readFile(rel, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const specifier = m[1] as string;
      if (specifier.startsWith('node:')) continue;
      const library = packageOf(specifier);
      if (!byLibrary.has(library)) byLibrary.set(library, new Set());
      byLibrary.get(library)?.add(rel);
    }
  }
  return byLibrary;
}

test('each outside library is imported by one src module (or from inside its adapter folder)', async () => {
  const byLibrary = await importersByLibrary();
  const strays: string[] = [];
  for (const [library, importers] of byLibrary) {
    if (FRAMEWORK.has(library)) continue;
    const folder = ADAPTER_FOLDERS[library];
    if (folder) {
      for (const file of importers)
        if (!file.startsWith(folder)) strays.push(`${library}: ${file} (outside ${folder})`);
    } else if (importers.size > 1) {
      strays.push(`${library}: ${[...importers].sort().join(', ')}`);
    }
  }
  expect(strays).toEqual([]);
  // The scan sees what it should: the image and PDF adapters, and the framework.
  expect([...(byLibrary.get('sharp') ?? [])]).toEqual(['src/adapters/sharp.ts']);
  expect([...(byLibrary.get('pdfkit') ?? [])]).toEqual(['src/adapters/pdf.ts']);
  expect([...(byLibrary.get('nodemailer') ?? [])]).toEqual(['src/adapters/mail.ts']);
  expect([...(byLibrary.get('@sendgrid/mail') ?? [])]).toEqual(['src/services/notifier/transports/sendgrid.ts']);
  expect(byLibrary.get('fastify')?.size).toBeGreaterThan(1);
});

test('the lists above name only libraries src imports (no stale entries)', async () => {
  const byLibrary = await importersByLibrary();
  for (const library of [...FRAMEWORK, ...Object.keys(ADAPTER_FOLDERS)]) {
    expect(byLibrary.has(library), library).toBe(true);
  }
});
