/**
 * Inventory (OWASP API9): every API route the server answers is in the OpenAPI document
 * (`openapi/openapi.json`), with the same methods, and every documented operation exists.
 * Only the browser app's pages and assets, the `/docs` viewer and CORS preflight are not
 * API routes. (test/openapi/openapi.test.ts keeps the document equal to what the code
 * generates; this one catches a route left out of it, such as one with a hidden schema.)
 */
import { expect, test } from 'vitest';
import { build } from '../helpers/build.js';
import { operations } from '../support/abuse-openapi.js';

/** `printRoutes({ commonPrefix: false })` as [method, path] pairs. */
function routesOf(tree: string): [string, string][] {
  const out: [string, string][] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)(?:├── |└── )(.+) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = (m[1] as string).length / 4;
    stack.length = depth;
    const full = `${stack[depth - 1] ?? ''}${m[2]}`;
    stack[depth] = full;
    for (const method of (m[3] as string).split(', ')) out.push([method, full]);
  }
  return out;
}

/** A path's shape: parameters made alike (`:id|:orderNumber`, `{id}` → `{}`). */
const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/:[^/]+/g, '{}');

const API = /^\/(api\/|event($|\/)|healthz$|readyz$|openapi\.json$)/;

test('every API route is documented, and every documented operation is a route', async (t) => {
  const app = await build(t);
  const routes = routesOf(app.printRoutes({ commonPrefix: false }))
    .filter(([method, p]) => method !== 'HEAD' && method !== 'OPTIONS' && API.test(p))
    .map(([method, p]) => `${method} ${shape(p)}`);
  expect(routes.length).toBeGreaterThan(25);
  const documented = operations().map((op) => `${op.method} ${shape(op.path)}`);
  expect([...new Set(routes)].filter((r) => !documented.includes(r)).sort()).toEqual([]);
  expect(documented.filter((d) => !routes.includes(d)).sort()).toEqual([]);
});
