/**
 * Admin tokens made by the owner (docs/contract.md, "Roles"): `POST /api/admin/tokens` shows the
 * token once and stores its hash; the token works at once with its role (the history names it
 * as the list does); `GET` never shows a secret; `DELETE` revokes it at once here and within
 * about a second on another server process; ADMIN_TOKENS keeps working; owner only.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, build } from '../../helpers/build.js';
import { appWithEvents, call, expectError, orderIn } from './fixtures.js';

const as = (token: string) => ({ authorization: `Bearer ${token}` });

test('a staff token: made by the owner, shown once, works at once as staff (and only as staff), named in the history as listed', async (t) => {
  const app = await appWithEvents(t);
  const made = await call(app, {
    method: 'POST',
    url: '/api/admin/tokens',
    payload: { role: 'staff', label: 'Ana at the booth' },
  });
  expect(made.statusCode, made.body).toBe(201);
  const { id, token, by } = made.json();
  expect(made.json()).toMatchObject({ role: 'staff', label: 'Ana at the booth', revokedAt: null });
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(by).toMatch(/^staff:[0-9a-f]{8}$/);
  expect(made.headers['cache-control']).toBe('no-store');

  // As staff: marks paid; may not void nor manage tokens.
  const order = await orderIn(app, 'pending');
  const paid = await call(app, {
    method: 'POST',
    url: `/api/orders/${order.id}/update-status`,
    payload: { status: 'paid' },
    admin: false,
    headers: as(token),
  });
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().order.history.at(-1)).toMatchObject({ action: 'status', to: 'paid', by });
  expectError(
    await call(app, {
      method: 'POST',
      url: `/api/orders/${order.id}/update-status`,
      payload: { status: 'void' },
      admin: false,
      headers: as(token),
    }),
    403,
    'FORBIDDEN',
  );
  expectError(await call(app, { url: '/api/admin/tokens', admin: false, headers: as(token) }), 403, 'FORBIDDEN');
  const me = (await call(app, { url: '/api/admin/me', admin: false, headers: as(token) })).json();
  expect(me).toMatchObject({ role: 'staff', by });

  // The list: no token, no hash, anywhere; the environment's tokens without theirs either.
  const list = await call(app, { url: '/api/admin/tokens' });
  expect(list.json().tokens).toEqual([
    expect.objectContaining({ id, role: 'staff', label: 'Ana at the booth', by, revokedAt: null }),
  ]);
  expect(list.json().environment).toEqual([{ role: 'owner', by: expect.stringMatching(/^admin:[0-9a-f]{8}$/) }]);
  expect(list.body).not.toContain(token);
  expect(list.body).not.toMatch(/[0-9a-f]{64}/);
  // The record keeps only its SHA-256.
  const db = await readFile(path.join(app.dataDir, 'orders.db'));
  expect(db.includes(Buffer.from(token))).toBe(false);
});

test('revoked: refused at once here, and within about a second on another server process; ADMIN_TOKENS still works', async (t) => {
  const app = await appWithEvents(t);
  const other = await build(t, { dataDir: app.dataDir });
  const { id, token } = (
    await call(app, { method: 'POST', url: '/api/admin/tokens', payload: { role: 'viewer', label: 'Partner' } })
  ).json();
  // The other process takes it on its next look at the record (at most a second old).
  await expect
    .poll(async () => (await other.inject({ url: '/api/orders/summary', headers: as(token) })).statusCode, {
      interval: 100,
    })
    .toBe(200);
  expect((await app.inject({ url: '/api/orders/summary', headers: as(token) })).statusCode).toBe(200);

  const revoked = await call(app, { method: 'DELETE', url: `/api/admin/tokens/${id}` });
  expect(revoked.statusCode, revoked.body).toBe(200);
  expect(revoked.json()).toMatchObject({
    id,
    revokedAt: expect.any(String),
    revokedBy: expect.stringMatching(/^admin:/),
  });
  expectError(await call(app, { url: '/api/orders/summary', admin: false, headers: as(token) }), 401, 'UNAUTHORIZED');
  // The other process refuses it once its snapshot (at most a second old) is read again; the
  // poll waits for that, and fails if it never happens. No clock bound: a loaded machine
  // would break one (the snapshot's age is the stored-tokens module's REFRESH_MS).
  await expect
    .poll(async () => (await other.inject({ url: '/api/orders/summary', headers: as(token) })).statusCode, {
      interval: 100,
    })
    .toBe(401);
  // Again: nothing changes; an unknown id is 404.
  const again = await call(app, { method: 'DELETE', url: `/api/admin/tokens/${id}` });
  expect(again.json().revokedAt).toBe(revoked.json().revokedAt);
  expectError(await call(app, { method: 'DELETE', url: '/api/admin/tokens/nope' }), 404, 'TOKEN_NOT_FOUND');
  // The environment's owner token works on both.
  expect((await other.inject({ url: '/api/orders/summary', headers: as(ADMIN_TOKEN) })).statusCode).toBe(200);
  expect((await call(app, { url: '/api/admin/tokens' })).json().tokens[0].revokedAt).toEqual(expect.any(String));
});

test('bad bodies are 400; only staff and viewer tokens are made; without credentials 401', async (t) => {
  const app = await appWithEvents(t);
  for (const payload of [
    {},
    { role: 'owner' },
    { role: 'boss', label: 'x' },
    { role: 'staff', label: 'x'.repeat(61) },
    { role: 'staff', label: 'two\nlines' },
    { role: 'staff', token: 'mine-0123456789abcdef012345' },
  ]) {
    expectError(await call(app, { method: 'POST', url: '/api/admin/tokens', payload }), 400, 'VALIDATION_FAILED');
  }
  expectError(await call(app, { url: '/api/admin/tokens', admin: false }), 401, 'UNAUTHORIZED');
  expect((await call(app, { url: '/api/admin/tokens' })).json().tokens).toEqual([]);
});
