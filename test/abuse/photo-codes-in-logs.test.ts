/**
 * Photo codes never reach the logs (docs/contract.md, "Hardening, round 2"): a code is the key
 * to someone's photos, and logs are collected and kept by other systems. The real server at
 * LOG_LEVEL=trace (everything it logs, every request's line included) is asked everything a
 * code goes through: issued, looked up in every spelling, its page, subscriptions and their
 * confirmation, an unknown code, a malformed URL around one. No log line holds a code, in any
 * spelling; the request lines show its first 2 characters and a keyed hash instead.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, tempDir } from '../helpers/build.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { writeLibrary } from '../support/orders-fixtures.js';

test('no log line holds a photo code, even at trace level', { timeout: 180_000 }, async (t) => {
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  const server = await startServer(t, { env: serverEnv(dataDir, { LOG_LEVEL: 'trace' }) });
  const call = async (p: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${p}`, init);
    await res.arrayBuffer();
    return res.status;
  };
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const json = { 'content-type': 'application/json' };

  const issued = await fetch(`${server.url}/api/finder`, {
    method: 'POST',
    headers: { ...admin, ...json },
    body: '{}',
  });
  expect(issued.status).toBe(201);
  const { code } = (await issued.json()) as { code: string };
  const spellings = [code, code.toLowerCase(), `${code.slice(0, 4)}-${code.slice(4)}`];

  for (const s of spellings) expect(await call(`/api/finder/${s}`)).toBe(200);
  expect(await call(`/me/${code}`, { headers: { accept: 'text/html' } })).toBe(200);
  const subscribe = (body: object) =>
    call(`/api/finder/${code}/subscribe`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  expect(await subscribe({ email: 'ann@example.com' })).toBe(201);
  expect(await subscribe({ email: 'not an address' })).toBe(400);
  // An unknown code (well-formed), and one the router can't even decode.
  const unknown = code.startsWith('Z') ? `Y${code.slice(1)}` : `Z${code.slice(1)}`;
  expect(await call(`/api/finder/${unknown}`)).toBe(404);
  expect(
    await call(`/api/finder/${unknown}/subscribe`, { method: 'POST', headers: json, body: '{"email":"a@b.co"}' }),
  ).toBe(404);
  expect(await call(`/me/${code}%E0%A4%A`)).toBe(400);
  // The card sheet issues codes of its own.
  expect(await call('/api/finder/cards.pdf?count=2', { headers: admin })).toBe(200);
  await server.kill('SIGTERM');

  const everything = `${JSON.stringify(server.logs)}\n${server.stderr()}`.toUpperCase();
  expect(server.logs.length).toBeGreaterThan(10);
  for (const c of [code, unknown, `${code.slice(0, 4)}-${code.slice(4)}`]) {
    expect(everything.includes(c.toUpperCase()), `${c} in the logs`).toBe(false);
  }
  // What the request lines say instead: the first 2 characters and a hash.
  const lines = server.logs.filter((l) => l.msg === 'request completed').map((l) => String(l.url));
  expect(lines.some((u) => u.startsWith(`/api/finder/${code.slice(0, 2)}~`))).toBe(true);
  expect(lines.some((u) => u.startsWith(`/me/${code.slice(0, 2)}~`))).toBe(true);
});
