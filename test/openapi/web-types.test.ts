/**
 * The browser app's API types are generated from openapi/openapi.json (scripts/api-types.ts),
 * so the app can't drift from the server: a field the server stops declaring breaks the web
 * app's typecheck where the app reads it. That the checked-in file is current is
 * `npm run typecheck:api-types` (part of `npm test`), not repeated here.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { OPENAPI_FILE, renderApiTypes } from '../../scripts/lib/api-types.js';

const run = promisify(execFile);

// openapi-fetch's per-path types make the app's typecheck about twice as long as hand-typed
// calls did (51 s against 27 s, measured on a busy 2-core machine): the time allowed is for a busy one.
test('a schema change the app does not follow breaks the web typecheck', { timeout: 300_000 }, async (t) => {
  // A copy of web/ inside the repository (so node_modules resolves), with types generated
  // from a document whose Order no longer has `orderNumber`. The app also imports the grid's
  // tile sizes from the server's sources (src/domain/tile-sizes.ts): copied beside it.
  const root = path.resolve('test-artifacts', `web-types-${process.pid}`);
  const dir = path.join(root, 'web');
  await mkdir(dir, { recursive: true });
  t.onTestFinished(() => rm(root, { recursive: true, force: true }));
  await cp('web', dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}dist`) });
  await cp('src/domain/tile-sizes.ts', path.join(root, 'src/domain/tile-sizes.ts'));
  const doc = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
  const order = doc.components.schemas.Order;
  delete order.properties.orderNumber;
  order.required = order.required.filter((f: string) => f !== 'orderNumber');
  await writeFile(path.join(dir, 'src/lib/api-schema.ts'), await renderApiTypes(JSON.stringify(doc)));
  // The admin's order list and what it imports, not the whole app: the same compiler options
  // on a third of the files (the whole app is `npm run typecheck:web`), which is enough to see
  // a removed field break the page that reads it.
  await writeFile(
    path.join(dir, 'tsconfig.orders.json'),
    JSON.stringify({ extends: './tsconfig.json', include: [], files: ['src/admin/Orders.tsx'] }),
  );

  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.orders.json')]).then(
    () => ({ code: 0, out: '' }),
    (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
  );
  expect(result.code).not.toBe(0);
  expect(result.out).toMatch(/Property 'orderNumber' does not exist on type/);
  expect(result.out).toMatch(/src\/admin\//); // where the admin pages read an Order's number
});
