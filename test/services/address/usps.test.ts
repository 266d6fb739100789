import { describe, expect, test } from 'vitest';
import { createUspsVerifier, TOKEN_RENEW_MARGIN_MS } from '../../../src/services/address/usps.js';
import { startUspsStub, USPS_CLIENT, type UspsStub } from '../../support/address-stubs.js';

const WHITE_HOUSE = { line1: '1600 Pennsylvania Avenue NW', city: 'Washington', state: 'DC', zip: '20500' };

function verifier(stub: UspsStub, over: { timeoutMs?: number; now?: () => number; clientSecret?: string } = {}) {
  return createUspsVerifier({
    baseUrl: stub.url,
    clientId: USPS_CLIENT.id,
    clientSecret: over.clientSecret ?? USPS_CLIENT.secret,
    timeoutMs: over.timeoutMs ?? 3000,
    now: over.now,
  });
}

const lookups = (stub: UspsStub) => stub.requests.filter((r) => r.path === '/addresses/v3/address');

describe('USPS Addresses API v3 verifier', () => {
  test('a known address comes back standardised, with ZIP+4', async (t) => {
    const stub = await startUspsStub(t);
    const check = await verifier(stub).verify(WHITE_HOUSE);
    expect(check).toEqual({
      status: 'valid',
      address: { line1: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', state: 'DC', zip: '20500-0005' },
    });
    const [token, lookup] = stub.requests;
    expect(token?.method).toBe('POST');
    expect(JSON.parse(token?.body ?? '')).toMatchObject({
      grant_type: 'client_credentials',
      client_id: USPS_CLIENT.id,
      client_secret: USPS_CLIENT.secret,
    });
    expect(lookup?.headers.authorization).toBe('Bearer tok-1');
    expect(lookup?.query).toEqual({
      streetAddress: '1600 Pennsylvania Avenue NW',
      city: 'Washington',
      state: 'DC',
      ZIPCode: '20500',
    });
  });

  test('a secondary address is joined to the street; ZIP+4 input is sent as ZIPPlus4', async (t) => {
    const stub = await startUspsStub(t);
    const check = await verifier(stub).verify({
      line1: '350 Fifth Avenue Suite 300',
      city: 'New York',
      state: 'NY',
      zip: '10118-0110',
    });
    expect(check).toEqual({
      status: 'valid',
      address: { line1: '350 5TH AVE STE 300', city: 'NEW YORK', state: 'NY', zip: '10118-0110' },
    });
    expect(lookups(stub)[0]?.query).toMatchObject({ ZIPCode: '10118', ZIPPlus4: '0110' });
  });

  test('the token is fetched once and reused until shortly before it expires', async (t) => {
    const stub = await startUspsStub(t, { expiresIn: 3600 });
    let now = 1_000_000;
    const v = verifier(stub, { now: () => now });
    await Promise.all([v.verify(WHITE_HOUSE), v.verify(WHITE_HOUSE), v.verify(WHITE_HOUSE)]);
    await v.verify(WHITE_HOUSE);
    expect(stub.tokenRequests()).toBe(1);
    expect(lookups(stub).map((r) => r.headers.authorization)).toEqual(Array(4).fill('Bearer tok-1'));

    now += 3600_000 - TOKEN_RENEW_MARGIN_MS - 1;
    await v.verify(WHITE_HOUSE);
    expect(stub.tokenRequests()).toBe(1);
    now += 2;
    await v.verify(WHITE_HOUSE);
    expect(stub.tokenRequests()).toBe(2);
    expect(lookups(stub).at(-1)?.headers.authorization).toBe('Bearer tok-2');
  });

  test('a token revoked early (401) is replaced once and the lookup repeated', async (t) => {
    const stub = await startUspsStub(t);
    const v = verifier(stub);
    await v.verify(WHITE_HOUSE);
    stub.revokeTokens();
    const check = await v.verify(WHITE_HOUSE);
    expect(check.status).toBe('valid');
    expect(stub.tokenRequests()).toBe(2);
  });

  test('"Address Not Found" (404) is invalid', async (t) => {
    const stub = await startUspsStub(t);
    const check = await verifier(stub).verify({
      line1: '99 Nowhere St',
      city: 'Washington',
      state: 'DC',
      zip: '20500',
    });
    expect(check).toEqual({ status: 'invalid', field: 'line1', reason: 'USPS: Address Not Found.' });
  });

  test('a 400 about the ZIP code is invalid on the zip field', async (t) => {
    const stub = await startUspsStub(t);
    stub.failWith.address = {
      status: 400,
      body: { apiVersion: '/addresses/v3', error: { code: '400', message: 'Invalid Zip Code.', errors: [] } },
    };
    const check = await verifier(stub).verify(WHITE_HOUSE);
    expect(check).toEqual({ status: 'invalid', field: 'zip', reason: 'USPS: Invalid Zip Code.' });
  });

  test('DPV confirmation N (no delivery point) is invalid', async (t) => {
    const stub = await startUspsStub(t);
    const check = await verifier(stub).verify({
      line1: '1 Vacant Lot Rd',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(check).toMatchObject({ status: 'invalid', field: 'line1' });
  });

  test('what the local rules refuse never reaches USPS', async (t) => {
    const stub = await startUspsStub(t);
    const check = await verifier(stub).verify({ ...WHITE_HOUSE, state: 'CA', zip: '12345' });
    expect(check).toMatchObject({ status: 'invalid', field: 'zip' });
    expect(stub.requests).toHaveLength(0);
  });

  test.for([
    ['429', { status: 429, body: { error: 'rate limited' } }, /429/],
    ['500', { status: 500, body: { error: 'boom' } }, /500/],
    ['503 with an HTML page', { status: 503, raw: '<html>down</html>' }, /503/],
    ['200 with nonsense', { status: 200, body: { hello: 'world' } }, /usable address/],
  ] as const)('%s on the lookup is unverified', async ([, answer, reason], t) => {
    const stub = await startUspsStub(t);
    stub.failWith.address = answer;
    const check = await verifier(stub).verify(WHITE_HOUSE);
    expect(check.status).toBe('unverified');
    if (check.status === 'unverified') expect(check.reason).toMatch(reason);
  });

  test.for([
    ['429', { status: 429, body: {} }],
    ['502', { status: 502, body: {} }],
    ['an answer without a token', { status: 200, body: { token_type: 'Bearer' } }],
  ] as const)('%s from the token endpoint is unverified', async ([, answer], t) => {
    const stub = await startUspsStub(t);
    stub.failWith.token = answer;
    expect((await verifier(stub).verify(WHITE_HOUSE)).status).toBe('unverified');
    expect(lookups(stub)).toHaveLength(0);
  });

  test('wrong client credentials are unverified (the order goes through flagged)', async (t) => {
    const stub = await startUspsStub(t);
    const check = await verifier(stub, { clientSecret: 'wrong' }).verify(WHITE_HOUSE);
    expect(check).toMatchObject({ status: 'unverified', reason: expect.stringMatching(/credentials/) });
  });

  test('a lookup that never answers is unverified within the budget', async (t) => {
    const stub = await startUspsStub(t);
    stub.failWith.address = 'hang';
    // The stub never answers, so only the budget's timer can end the lookup (its reason says so);
    // no upper bound read from a clock, which a loaded machine would break.
    const started = performance.now();
    const check = await verifier(stub, { timeoutMs: 300 }).verify(WHITE_HOUSE);
    const elapsed = performance.now() - started;
    expect(check).toEqual({ status: 'unverified', reason: 'no answer within 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  test('a token endpoint that never answers is unverified within the budget', async (t) => {
    const stub = await startUspsStub(t);
    stub.failWith.token = 'hang';
    // The stub never answers, so only the budget's timer can end the lookup (its reason says so);
    // no upper bound read from a clock, which a loaded machine would break.
    const check = await verifier(stub, { timeoutMs: 300 }).verify(WHITE_HOUSE);
    expect(check).toEqual({ status: 'unverified', reason: 'no answer within 300 ms' });
  });

  test('a server that is not there is unverified', async () => {
    const v = createUspsVerifier({ baseUrl: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b', timeoutMs: 2000 });
    const check = await v.verify(WHITE_HOUSE);
    expect(check).toMatchObject({ status: 'unverified', reason: expect.stringMatching(/request failed/) });
  });
});
