/**
 * Takedown requests as an attacker would file them (docs/contract.md, "Hardening, round 2"):
 * a viewer's token is no way around the CAPTCHA (403), and one address can take at most 5
 * photos off the gallery per hour however it asks (a burst, a staff token); further requests
 * are still taken (202) and kept for the owner's review, hiding nothing until decided.
 */
import { expect, test } from 'vitest';
import type { TestApp } from '../helpers/build.js';
import { expectMatchesOpenApi } from '../helpers/openapi-response.js';
import { EVENT, expectError, ordersApp, solvedCaptcha } from '../support/orders-fixtures.js';

const OWNER = 'test-admin-token-0123456789abcdef';
const STAFF = 'staff-token-for-takedowns-01234567';
const VIEWER = 'viewer-token-for-takedowns-0123456';
const ROUTE = '/api/photos/{event}/{photo}/takedown';
const ATTACKER = '203.0.113.66';

async function floodApp(t: Parameters<typeof ordersApp>[0]): Promise<TestApp> {
  return ordersApp(t, {
    photoCount: 12,
    env: {
      ADMIN_TOKENS: `${OWNER},staff:${STAFF},viewer:${VIEWER}`,
      RATE_LIMIT_FEEDBACK_PER_MIN: '1000',
      RATE_LIMIT_CAPTCHA_PER_MIN: '1000',
    },
  });
}

const ask = (app: TestApp, photo: string, opts: { from?: string; token?: string; captchaToken?: string } = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/photos/${encodeURIComponent(EVENT)}/${photo}/takedown`,
    remoteAddress: opts.from ?? ATTACKER,
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
    payload: {
      reason: 'other',
      email: 'someone@example.com',
      ...(opts.captchaToken ? { captchaToken: opts.captchaToken } : {}),
    },
  });

const listed = async (app: TestApp) =>
  ((await app.inject({ url: `/event/${encodeURIComponent(EVENT)}?limit=100` })).json().photos as { number: string }[])
    .map((p) => p.number)
    .sort((a, b) => Number(a) - Number(b));

test('a viewer token files no takedown: 403, with or without a CAPTCHA; nothing is hidden', async (t) => {
  const app = await floodApp(t);
  for (const captchaToken of [undefined, await solvedCaptcha(app)]) {
    const res = await ask(app, '1', { token: VIEWER, ...(captchaToken ? { captchaToken } : {}) });
    expectError(res, 'POST', ROUTE, 403, 'FORBIDDEN');
  }
  expect(await listed(app)).toHaveLength(12);
  expect(await app.store.takedowns.list()).toEqual([]);
  // Staff may file one without a CAPTCHA.
  const staff = await ask(app, '1', { token: STAFF });
  expect(staff.statusCode, staff.body).toBe(202);
  expect(staff.json().hidden).toBe(true);
});

test('one address hides at most 5 photos an hour: a burst of 8 hides 5, the rest wait for review', async (t) => {
  const app = await floodApp(t);
  const tokens = await Promise.all(Array.from({ length: 8 }, () => solvedCaptcha(app)));
  const burst = await Promise.all(tokens.map((captchaToken, i) => ask(app, String(i + 1), { captchaToken })));
  for (const r of burst) {
    expect(r.statusCode, r.body).toBe(202);
    expectMatchesOpenApi('POST', ROUTE, r);
  }
  expect(burst.filter((r) => r.json().hidden === true)).toHaveLength(5);
  const kept = burst.filter((r) => r.json().hidden === false);
  expect(kept).toHaveLength(3);
  // Seven of twelve still show: the three kept for review hide nothing.
  expect(await listed(app)).toHaveLength(7);

  // A staff token from the same address counts against the same limit.
  const staff = await ask(app, '9', { token: STAFF });
  expect(staff.json()).toMatchObject({ hidden: false });
  // Another address has its own five; the owner is never counted.
  const other = await ask(app, '10', { from: '198.51.100.7', captchaToken: await solvedCaptcha(app) });
  expect(other.json()).toMatchObject({ hidden: true });
  const owner = await ask(app, '11', { token: OWNER });
  expect(owner.json()).toMatchObject({ hidden: true });
  expect(await listed(app)).toHaveLength(5);

  // The owner sees the waiting ones as not hidden, and decides them like any other.
  const open = (
    await app.inject({ url: '/api/takedowns?status=open', headers: { authorization: `Bearer ${OWNER}` } })
  ).json().takedowns as { id: string; hidden: boolean }[];
  const waiting = open.filter((r) => !r.hidden).map((r) => r.id);
  expect(waiting.sort()).toEqual([...kept.map((r) => r.json().requestId), staff.json().requestId].sort());
  const decided = await app.inject({
    method: 'POST',
    url: `/api/takedowns/${waiting[0]}`,
    headers: { authorization: `Bearer ${OWNER}` },
    payload: { decision: 'remove' },
  });
  expect(decided.statusCode, decided.body).toBe(200);
  expect(await listed(app)).toHaveLength(4);
});
