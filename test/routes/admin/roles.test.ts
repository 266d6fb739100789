/**
 * Roles (docs/contract.md, "Roles"): every admin route × every role, generated from the app's
 * own route table, so a route added without a declared role (or with the wrong one) fails
 * here; the finer rules inside routes; a staff token running a booth day; `history.by`.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { ROLES, type Role, roleAtLeast } from '../../../src/domain/roles.js';
import { ROLE_TABLE_END, ROLE_TABLE_START, renderRoleTable } from '../../../src/openapi/role-table.js';
import type { RouteAccessEntry } from '../../../src/services/admin-auth/types.js';
import { ADMIN_TOKEN, build, type TestApp } from '../../helpers/build.js';
import { blockContext, bodyA, ordersApp } from '../../support/orders-fixtures.js';
import { newOrder } from '../../support/store-fixtures.js';
import { expectError } from './fixtures.js';

const STAFF_TOKEN = 'staff-token-0123456789abcdefghij';
const VIEWER_TOKEN = 'viewer-token-0123456789abcdefghi';
const OWNER_TOKEN = 'owner-token-0123456789abcdefghijk';
const ADMIN_TOKENS = `${ADMIN_TOKEN},staff:${STAFF_TOKEN},viewer:${VIEWER_TOKEN},owner:${OWNER_TOKEN}`;

const TOKENS: Record<Role, string> = { owner: ADMIN_TOKEN, staff: STAFF_TOKEN, viewer: VIEWER_TOKEN };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const hash8 = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 8);

async function rolesApp(t: Parameters<typeof build>[0]): Promise<TestApp> {
  // Every admin route gets one wrong token below: more than the lockout's default allowance.
  return ordersApp(t, { env: { ADMIN_TOKENS, ADMIN_AUTH_MAX_FAILURES: '1000' } });
}

/** A URL for a route of the table: its parameters filled with things that exist. */
function urlFor(route: RouteAccessEntry, orderNumber: string): string {
  return route.url.replace(/:(\w+)/g, (_m, name: string) => {
    if (/^(id|orderId|orderNumber)$/.test(name)) return orderNumber;
    if (name === 'event') return encodeURIComponent('Anime Expo');
    if (name === 'photo') return '1';
    return 'x';
  });
}

describe('every admin route × every role, from the route table', () => {
  // The tests that only read the route table and the OpenAPI document share one app.
  const block = blockContext();
  let shared: Promise<TestApp> | undefined;
  const readOnlyApp = () => {
    shared ??= rolesApp(block);
    return shared;
  };

  test('the table holds every route that names the admin scheme, and nothing else', async () => {
    const app = await readOnlyApp();
    const doc = app.swagger() as unknown as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    const fromDoc: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security?.some((s) => 'adminToken' in s)) fromDoc.push(`${method.toUpperCase()} ${p}`);
      }
    }
    const fromTable = app.adminAuth
      .routes()
      .flatMap((r) => r.method.split(',').map((m) => `${m} ${r.url.replace(/:(\w+)/g, '{$1}')}`));
    expect(fromTable.sort()).toEqual(fromDoc.sort());
    expect(fromTable.length).toBeGreaterThan(15);
  });

  test('each role gets through exactly the routes its role may use; the others answer 403 FORBIDDEN', async (t) => {
    const app = await rolesApp(t);
    const routes = app.adminAuth.routes();
    const seen = { allowed: 0, forbidden: 0 };
    for (const route of routes) {
      for (const method of route.method.split(',')) {
        for (const role of ROLES) {
          // A fresh order per call: what one allowed call changed can't decide the next.
          const order = await app.store.orders.create(newOrder({ eventSlug: 'Anime Expo', prefix: 'AX26' }), {
            by: 'customer',
          });
          const url = urlFor(route, order.orderNumber);
          const res = await app.inject({
            method: method as 'GET',
            url,
            headers: bearer(TOKENS[role]),
            ...(method === 'GET' ? {} : { payload: {} }),
          });
          const what = `${role} ${method} ${url}: ${res.statusCode} ${res.body.slice(0, 160)}`;
          if (roleAtLeast(role, route.role)) {
            expect([401, 403], what).not.toContain(res.statusCode);
            seen.allowed++;
          } else {
            expectError(res, 403, 'FORBIDDEN');
            seen.forbidden++;
          }
        }
      }
    }
    expect(seen.allowed).toBeGreaterThan(0);
    expect(seen.forbidden).toBeGreaterThan(0);
  });

  test('without credentials every admin-only route is 401, and a wrong token too', async (t) => {
    const app = await rolesApp(t);
    for (const route of app.adminAuth.routes()) {
      if (route.public !== undefined) continue;
      for (const method of route.method.split(',')) {
        const url = urlFor(route, 'AX26-0001');
        const payload = method === 'GET' ? {} : { payload: {} };
        expectError(await app.inject({ method: method as 'GET', url, ...payload }), 401, 'UNAUTHORIZED');
        const wrong = await app.inject({
          method: method as 'GET',
          url,
          headers: bearer(`${STAFF_TOKEN}x`),
          ...payload,
        });
        expectError(wrong, 401, 'UNAUTHORIZED');
      }
    }
  });

  test('each route names its role in its OpenAPI description, and those above viewer declare 403', async () => {
    const app = await readOnlyApp();
    const doc = app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { description?: string; responses: Record<string, { description: string }> }>
      >;
    };
    for (const route of app.adminAuth.routes()) {
      for (const method of route.method.split(',')) {
        const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
        expect(op?.description, `${method} ${route.url}`).toMatch(/\*\*(Role|Access)\*\*/);
        if (route.role !== 'viewer') expect(op?.responses['403']?.description).toContain('FORBIDDEN');
      }
    }
  });

  test("docs/contract.md's roles table is the one the route table makes (npm run openapi)", async () => {
    const app = await readOnlyApp();
    const doc = await readFile(new URL('../../../docs/contract.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf(ROLE_TABLE_START) + ROLE_TABLE_START.length, doc.indexOf(ROLE_TABLE_END));
    expect(table.trim()).toBe(renderRoleTable(app.adminAuth.routes()));
  });
});

describe('a route cannot forget its role', () => {
  test('a route naming the admin scheme without config.access is refused at registration', async (t) => {
    const app = await build(t, { noReady: true });
    expect(() =>
      app.get('/api/forgot', { schema: { security: [{ adminToken: [] }] } }, async () => ({ ok: true })),
    ).toThrow(/declares no role/);
  });

  test('access without the admin scheme, or public access without an open security entry, is refused', async (t) => {
    const app = await build(t, { noReady: true });
    expect(() => app.get('/api/a', { config: { access: 'staff' } }, async () => ({}))).toThrow(/adminToken/);
    expect(() =>
      app.get(
        '/api/b',
        { config: { access: { role: 'staff', public: 'with a CAPTCHA' } }, schema: { security: [{ adminToken: [] }] } },
        async () => ({}),
      ),
    ).toThrow(/public/);
    expect(() =>
      app.get(
        '/api/c',
        { config: { access: 'staff' }, schema: { security: [{}, { adminToken: [] }] } },
        async () => ({}),
      ),
    ).toThrow(/public/);
  });
});

describe('finer rules, the booth day and the history', () => {
  test('a staff token runs a booth day: booth order, paid, label; and cannot void, cancel or change event settings', async (t) => {
    const app = await rolesApp(t);
    const staff = bearer(STAFF_TOKEN);
    const created = await app.inject({ method: 'POST', url: '/api/orders/create', headers: staff, payload: bodyA() });
    expect(created.statusCode, created.body).toBe(201);
    const number = created.json().orderNumber as string;

    const voided = await app.inject({
      method: 'POST',
      url: `/api/orders/${number}/update-status`,
      headers: staff,
      payload: { status: 'void' },
    });
    expectError(voided, 403, 'FORBIDDEN');
    const cancelled = await app.inject({
      method: 'PUT',
      url: `/api/orders/${number}`,
      headers: staff,
      payload: { status: 'cancelled' },
    });
    expectError(cancelled, 403, 'FORBIDDEN');

    const edited = await app.inject({
      method: 'PUT',
      url: `/api/orders/${number}`,
      headers: staff,
      payload: { customerEmail: 'ada.l@example.com' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const paid = await app.inject({
      method: 'POST',
      url: `/api/orders/${number}/update-status`,
      headers: staff,
      payload: { status: 'paid' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().order.status).toBe('paid');
    const label = await app.inject({ url: `/api/orders/${number}/envelope/png`, headers: staff });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('image/png');

    const settings = await app.inject({
      method: 'PUT',
      url: '/api/event-config',
      headers: staff,
      payload: { eventSlug: 'Anime Expo', orderingEnabled: false },
    });
    expectError(settings, 403, 'FORBIDDEN');

    // The history names the staff token: staff:<first 8 hex of the token part's SHA-256>.
    const order = await app.store.orders.get(number);
    const by = order?.history.map((h) => h.by);
    expect(by).toEqual([`staff:${hash8(STAFF_TOKEN)}`, `staff:${hash8(STAFF_TOKEN)}`, `staff:${hash8(STAFF_TOKEN)}`]);
    expect(order?.history.map((h) => h.action)).toEqual(['create', 'edit', 'status']);

    // The owner may void it; an `owner:` entry is named `admin:` by its token part.
    const owner = await app.inject({
      method: 'POST',
      url: `/api/orders/${number}/update-status`,
      headers: bearer(OWNER_TOKEN),
      payload: { status: 'void' },
    });
    expect(owner.statusCode, owner.body).toBe(200);
    expect((await app.store.orders.get(number))?.history.at(-1)?.by).toBe(`admin:${hash8(OWNER_TOKEN)}`);
  });

  test('staff undo a "Mark paid" of their own within the window; not another admin\'s (round 2)', async (t) => {
    const otherStaff = 'staff-token-two-0123456789abcdefg';
    const app = await ordersApp(t, { env: { ADMIN_TOKENS: `${ADMIN_TOKENS},staff:${otherStaff}` } });
    const move = (number: string, status: string, token: string) =>
      app.inject({
        method: 'POST',
        url: `/api/orders/${number}/update-status`,
        headers: bearer(token),
        payload: { status },
      });
    const booth = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: bearer(STAFF_TOKEN),
        payload: bodyA(),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().orderNumber as string;
    };

    // Their own: paid, then back to pending, by the same staff token.
    const own = await booth();
    expect((await move(own, 'paid', STAFF_TOKEN)).statusCode).toBe(200);
    const undone = await move(own, 'pending', STAFF_TOKEN);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().order.status).toBe('pending');

    // Another staff token's "paid": refused, in words; the owner may undo it.
    const theirs = await booth();
    expect((await move(theirs, 'paid', otherStaff)).statusCode).toBe(200);
    const refused = await move(theirs, 'pending', STAFF_TOKEN);
    expectError(refused, 409, 'INVALID_TRANSITION');
    expect(refused.json().error).toMatch(/another admin marked it paid/);
    expect((await app.store.orders.get(theirs))?.status).toBe('paid');
    expect((await move(theirs, 'pending', ADMIN_TOKEN)).statusCode).toBe(200);

    // A viewer may not try at all.
    const third = await booth();
    expect((await move(third, 'paid', STAFF_TOKEN)).statusCode).toBe(200);
    expectError(await move(third, 'pending', VIEWER_TOKEN), 403, 'FORBIDDEN');
  });

  test('a viewer reads lists, orders and the summary, and may not take a booth order', async (t) => {
    const app = await rolesApp(t);
    const viewer = bearer(VIEWER_TOKEN);
    for (const url of ['/api/orders/pending', '/api/orders/summary', '/api/orders/completed']) {
      expect((await app.inject({ url, headers: viewer })).statusCode, url).toBe(200);
    }
    const booth = await app.inject({ method: 'POST', url: '/api/orders/create', headers: viewer, payload: bodyA() });
    expectError(booth, 403, 'FORBIDDEN');
    expect(await app.store.orders.list({ includeHeld: true })).toHaveLength(0);
  });

  test('GET /api/admin/me tells each token its role, its history name and what it may call', async (t) => {
    const app = await rolesApp(t);
    const me = async (token: string) => (await app.inject({ url: '/api/admin/me', headers: bearer(token) })).json();
    const owner = await me(ADMIN_TOKEN);
    const staff = await me(STAFF_TOKEN);
    const viewer = await me(VIEWER_TOKEN);
    expect(owner.role).toBe('owner');
    expect(owner.by).toBe(`admin:${hash8(ADMIN_TOKEN)}`);
    expect((await me(OWNER_TOKEN)).role).toBe('owner');
    expect(staff).toMatchObject({ role: 'staff', by: `staff:${hash8(STAFF_TOKEN)}` });
    expect(viewer.role).toBe('viewer');
    expect(owner.routes).toContain('PUT /api/event-config');
    expect(staff.routes).not.toContain('PUT /api/event-config');
    expect(staff.routes).toContain('POST /api/orders/:id/update-status');
    expect(staff.actions).toEqual(['status:paid', 'status:pending']);
    expect(owner.actions).toContain('status:void');
    expect(viewer.routes).toContain('GET /api/orders/pending');
    expect(viewer.routes).not.toContain('POST /api/orders/:id/update-status');
    expectError(await app.inject({ url: '/api/admin/me' }), 401, 'UNAUTHORIZED');
  });

  test('an entry with an unknown prefix is an owner token, whole; a role prefix does not count toward the length', async (t) => {
    const odd = 'team:abcdefghijklmnopqrstuvwxyz';
    const app = await build(t, { env: { ADMIN_TOKENS: odd } });
    const res = await app.inject({ url: '/api/admin/me', headers: bearer(odd) });
    expect(res.json().role).toBe('owner');
    await expect(build(t, { env: { ADMIN_TOKENS: 'staff:short-token-0123456789' } })).rejects.toThrow(
      /ADMIN_TOKENS: every token must be at least 24 characters/,
    );
  });
});
