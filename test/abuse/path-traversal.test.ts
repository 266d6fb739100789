/**
 * Path traversal in every path parameter of every operation of the OpenAPI document
 * (encoded, double-encoded, overlong UTF-8, backslashes, NUL, absolute paths), the other
 * parameters real, with admin credentials so nothing stops at the door: never a 2xx, never
 * a 5xx, the error body (docs/contract.md, "Hosts and formats"), and never a byte of a file outside PHOTOS_DIR. (The image routes
 * have their own, deeper version in test/routes/images/images.test.ts.)
 *
 * Over a real socket: `inject` parses URLs with WHATWG URL, which resolves `..` and `%2e%2e`
 * before the app sees them, as a browser would; an attacker's raw request line is not.
 */
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from 'vitest';
import { adminHeaders, build, tempDir } from '../helpers/build.js';
import { type Answer, enc, problemsWith } from '../support/abuse-fuzz.js';
import { operations, TRAVERSAL_SEGMENTS } from '../support/abuse-openapi.js';
import { bodyA, EVENT, ORDER_TEST_ENV, writeLibrary } from '../support/orders-fixtures.js';
import { makeImage } from '../support/photos-fixtures.js';

const MARKER = 'TOP-SECRET-MARKER-7c1e';

test('every path parameter: traversal is 400/404 in the error shape and reads nothing outside PHOTOS_DIR', {
  timeout: 60_000,
}, async (t) => {
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  // Files worth stealing next to the library: a real JPEG (so an image route would render
  // it) and a text file, both one folder up from PHOTOS_DIR and inside an event's parent.
  await writeFile(path.join(dataDir, 'secret.jpg'), await makeImage({ color: '#ff0000' }));
  await writeFile(path.join(dataDir, 'secret.txt'), MARKER);
  const app = await build(t, { dataDir, env: ORDER_TEST_ENV });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.onTestFinished(() => agent.destroy());
  const port = (app.server.address() as AddressInfo).port;
  const get = (method: string, url: string, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: url,
          agent,
          headers: { ...adminHeaders, ...(body ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
          });
          res.on('end', () =>
            resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text, method, url }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const created = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: adminHeaders,
    payload: bodyA(),
  });
  const orderNumber = (created.json() as { orderNumber: string }).orderNumber;
  const photo = app.photos.photosOf(EVENT)?.[0];
  if (!photo) throw new Error('no photo in the fixture library');
  const real: Record<string, string> = {
    eventCode: EVENT,
    event: EVENT,
    day: 'Day 1',
    session: 'Cosplay',
    photo: photo.id,
    id: orderNumber,
    orderId: orderNumber,
    orderNumber,
  };
  const attacks = [
    ...TRAVERSAL_SEGMENTS,
    enc('../secret.jpg'),
    enc('../../secret.txt'),
    enc(`${EVENT}/../../secret.jpg`),
    enc(path.join(dataDir, 'secret.jpg')),
    enc('/etc/passwd'),
    '..%2fsecret.jpg',
    '..%252fsecret.jpg',
    '..%5csecret.jpg',
    '%2e%2e%2fsecret.txt',
  ];

  const ops = operations().filter((op) => op.params.some((p) => p.in === 'path'));
  expect(ops.length).toBeGreaterThan(10);
  let sent = 0;
  const problems: string[] = [];
  for (const op of ops) {
    for (const param of op.params.filter((p) => p.in === 'path')) {
      for (const attack of attacks) {
        const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          name === param.name ? attack : enc(real[name] ?? 'x'),
        );
        const res = await get(op.method, url, op.body ? '{}' : undefined);
        sent++;
        const where = `${op.method} ${url}`;
        if (res.statusCode < 400 || res.statusCode >= 500) problems.push(`${where}: ${res.statusCode}`);
        if (![400, 404].includes(res.statusCode)) problems.push(`${where}: status ${res.statusCode}`);
        if (res.body.includes(MARKER) || res.body.includes('root:x:0:0')) problems.push(`${where}: leaked a file`);
        if (res.headers['content-type']?.toString().startsWith('image/')) problems.push(`${where}: served an image`);
        for (const p of problemsWith(op, res, { secrets: [dataDir, MARKER] })) problems.push(`${where}: ${p}`);
      }
    }
  }
  expect(problems).toEqual([]);
  expect(sent).toBeGreaterThan(300);
  expect(app.images.stats().renders).toBe(0);
});
