/**
 * Property-based tests over both submission bodies (fast-check): arbitrary JSON, and
 * near-valid bodies with one to three fields replaced, removed or added. Whatever comes in:
 * never a 5xx; every 4xx has exactly the error body (docs/contract.md, "Hosts and formats"); every answer is one the OpenAPI
 * document declares, with a body matching its schema; a 201 is a stored order.
 * The CAPTCHA is off here (it is not the point); half the runs are booth orders.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, test } from 'vitest';
import { adminHeaders, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { bodyA, bodyB, ErrorBody, GOOD_ADDRESS, ordersApp } from '../../support/orders-fixtures.js';

const RUNS = 120;

async function check(app: TestApp, url: string, res: LightMyRequestResponse, context: unknown): Promise<void> {
  expect(res.statusCode, `${res.body} for ${JSON.stringify(context)}`).toBeLessThan(500);
  expectMatchesOpenApi('POST', url, res);
  if (res.statusCode >= 400) {
    expect(ErrorBody.safeParse(res.json()).success, res.body).toBe(true);
  } else {
    expect(res.statusCode).toBe(201);
    const number = res.json().orderNumber as string;
    expect((await app.store.orders.get(number))?.orderNumber).toBe(number);
  }
}

/** Text that tends to break things: controls, line breaks, formulas, long runs, odd Unicode, money. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\r\nb',
    '\u2028',
    '\u202e123',
    '=HYPERLINK("http://x")',
    '+1 (555) 010-0000',
    '$1,000.00',
    '-$5.00',
    '12.345',
    'NaN',
    'Photo #1 (4x6) x0',
    'Photo #1 (4x6) x2 = $10.00',
    'Photo #999999999999999999999 (4x6) x1',
    '9'.repeat(400),
    '😀'.repeat(101),
    '__proto__',
    'constructor',
    '../../etc/passwd',
    'Anime Expo',
    'ship',
    'pickup',
  ),
);

const anyValue = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, [], {}, -1, 0, 1, 99, 100, 1e308),
);

type Mutation = { path: string[]; op: 'set' | 'delete'; value?: unknown };

function applyMutations(body: Record<string, unknown>, mutations: Mutation[]): unknown {
  const copy = structuredClone(body);
  for (const m of mutations) {
    let target: Record<string, unknown> = copy;
    for (const key of m.path.slice(0, -1)) {
      const next = target[key];
      if (next === null || typeof next !== 'object') {
        target[key] = {};
      }
      target = target[key] as Record<string, unknown>;
    }
    const last = m.path.at(-1) as string;
    if (m.op === 'delete') delete target[last];
    // A copy: the plausible values are shared between runs, and a later mutation of this body
    // must not change them (it once made a value that contained itself).
    else target[last] = structuredClone(m.value);
  }
  return copy;
}

/** Values a real client might plausibly send at a path, so that runs get past the schema. */
const plausible: Record<string, unknown[]> = {
  eventSlug: ['Anime Expo', 'Other Con', 'anime expo', 'Nope'],
  photos: [['1'], [1, 2, 3], ['7'], [{ number: '6', size: '8x10', quantity: 99 }], Array(201).fill('1')],
  'photos.0': ['6', 6, '0006', 'abc', { number: '2' }],
  'photos.2': ['4', { number: '5', size: '5x7' }, { number: '5', size: '11x14' }],
  'photos.2.number': ['1', 2, '0003', '404'],
  'photos.2.size': ['4X6', '5 x 7', 'A4'],
  'photos.2.quantity': [1, 50, 99, 100, 0],
  'customerInfo.name': ['Zoë', 'x'.repeat(100), 'x'.repeat(101), '=1+1', 'Ada\tL'],
  'customerInfo.email': ['a@b.co', 'a@b', ' ada@example.com '],
  'customerInfo.phone': ['', '5550100', '123', '+44 (20) 7946-0958'],
  shippingAddress: [GOOD_ADDRESS, { line1: '1 A St', city: 'X', state: 'ZZ', zip: '1' }, {}],
  'shippingAddress.line1': ['Main St', '350 Fifth Avenue Suite 300', ''],
  'shippingAddress.state': ['CA', 'DC', 'il', 'ZZ'],
  'shippingAddress.zip': ['62701-1234', '90210', 'ABCDE'],
  fulfillmentType: ['ship', 'pickup'],
  customerName: ['Zoë', 'x'.repeat(101)],
  customerEmail: ['a@b.co', 'a@b'],
  customerPhone: ['5550100', '123'],
  city: ['', 'Chicago'],
  state: ['CA', 'ZZ', ''],
  zipCode: ['90210', '60601', ''],
  items: ['Photo #1 (4x6) x2 = $10.00; Photo #2 (5x7) x1', 'Photo #6 (8x10) x5', 'Photo #9 (4x6) x1', 'junk'],
  subtotal: ['$20.00', '20', '$2,000.00', 'abc'],
  shippingFee: ['$0.00', '$5.00', '5'],
  total: ['$25.00', '$20.00', '25.001'],
};

const mutations = (paths: string[][]) =>
  fc.array(
    fc.constantFrom(...paths).chain((path) =>
      fc.record({
        path: fc.constant(path),
        op: fc.constantFrom('set', 'set', 'set', 'delete') as fc.Arbitrary<'set' | 'delete'>,
        value: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...(plausible[path.join('.')] ?? [null])) },
          { weight: 2, arbitrary: anyValue },
        ),
      }),
    ),
    { minLength: 1, maxLength: 3 },
  );

const PATHS_A = [
  ['eventSlug'],
  ['photos'],
  ['photos', '0'],
  ['photos', '2'],
  ['photos', '2', 'number'],
  ['photos', '2', 'size'],
  ['photos', '2', 'quantity'],
  ['customerInfo'],
  ['customerInfo', 'name'],
  ['customerInfo', 'email'],
  ['customerInfo', 'phone'],
  ['shippingAddress'],
  ['shippingAddress', 'line1'],
  ['shippingAddress', 'state'],
  ['shippingAddress', 'zip'],
  ['fulfillmentType'],
  ['captchaToken'],
  ['somethingElse'],
];

const PATHS_B = [
  ['eventSlug'],
  ['customerName'],
  ['customerEmail'],
  ['customerPhone'],
  ['fulfillmentType'],
  ['shippingAddress'],
  ['city'],
  ['state'],
  ['zipCode'],
  ['items'],
  ['subtotal'],
  ['shippingFee'],
  ['total'],
  ['captchaToken'],
  ['somethingElse'],
];

const asBooth = fc.boolean();
const extraHeaders = fc.record(
  {
    referer: fc.oneof(
      nastyString,
      fc.constantFrom('https://g.example/event/Anime%20Expo/', 'https://g.example/event/%E0%A4%A'),
    ),
    'idempotency-key': fc.oneof({ weight: 4, arbitrary: fc.uuid() }, { weight: 1, arbitrary: nastyString }),
    'x-captcha-token': nastyString,
  },
  { requiredKeys: [] },
);

/** Header values must be sendable at all (light-my-request refuses some characters). */
function sendable(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, v]) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v)));
}

describe('order submission never fails with a 5xx', () => {
  test('arbitrary JSON bodies, both routes', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/orders/create', '/api/orders'),
        fc.jsonValue({ maxDepth: 4 }),
        asBooth,
        async (url, payload, booth) => {
          const res = await app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json', ...(booth ? adminHeaders : {}) },
            payload: JSON.stringify(payload),
          });
          await check(app, url, res, payload);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('near-valid variant A bodies', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const valid = bodyA({ shippingAddress: GOOD_ADDRESS });
    await fc.assert(
      fc.asyncProperty(mutations(PATHS_A), asBooth, extraHeaders, async (muts, booth, headers) => {
        const payload = applyMutations(valid, muts);
        const res = await app.inject({
          method: 'POST',
          url: '/api/orders/create',
          headers: { ...sendable(headers), ...(booth ? adminHeaders : {}) },
          payload: payload as Record<string, unknown>,
        });
        await check(app, '/api/orders/create', res, { muts, headers });
      }),
      { numRuns: RUNS },
    );
  });

  test('near-valid variant B bodies', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const valid = bodyB();
    await fc.assert(
      fc.asyncProperty(mutations(PATHS_B), asBooth, extraHeaders, async (muts, booth, headers) => {
        const payload = applyMutations(valid, muts);
        const res = await app.inject({
          method: 'POST',
          url: '/api/orders',
          headers: { ...sendable(headers), ...(booth ? adminHeaders : {}) },
          payload: payload as Record<string, unknown>,
        });
        await check(app, '/api/orders', res, { muts, headers });
      }),
      { numRuns: RUNS },
    );
  });

  test('variant B items text built from fragments of valid and broken lines', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const fragment = fc.oneof(
      fc
        .record({
          photo: fc.oneof(fc.constantFrom('1', '2', '6', '7', '0001', 'x'), fc.string({ maxLength: 5 })),
          size: fc.oneof(fc.constantFrom('4x6', '5X7', '8 x 10', 'A4'), fc.string({ maxLength: 5 })),
          qty: fc.integer({ min: -5, max: 150 }),
          amount: fc.option(fc.oneof(fc.constantFrom('$5.00', '$10.00', '$1,000.00'), nastyString)),
        })
        .map((l) => `Photo #${l.photo} (${l.size}) x${l.qty}${l.amount === null ? '' : ` = ${l.amount}`}`),
      nastyString,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fragment, { minLength: 0, maxLength: 8 }),
        fc.constantFrom('; ', '\n', ';'),
        fc.constantFrom('$0.00', '$5.00', '$20.00', '$25.00'),
        async (lines, sep, total) => {
          const payload = bodyB({ items: lines.join(sep), subtotal: '$20.00', total });
          const res = await app.inject({ method: 'POST', url: '/api/orders', headers: adminHeaders, payload });
          await check(app, '/api/orders', res, payload.items);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
