import { describe, expect, test } from 'vitest';
import { createSmartyVerifier } from '../../../src/services/address/smarty.js';
import { SMARTY_AUTH, type SmartyStub, startSmartyStub } from '../../support/address-stubs.js';

const WHITE_HOUSE = { line1: '1600 Pennsylvania Avenue NW', city: 'Washington', state: 'DC', zip: '20500' };

function verifier(stub: SmartyStub, over: { timeoutMs?: number; authToken?: string } = {}) {
  return createSmartyVerifier({
    baseUrl: stub.url,
    authId: SMARTY_AUTH.id,
    authToken: over.authToken ?? SMARTY_AUTH.token,
    timeoutMs: over.timeoutMs ?? 3000,
  });
}

describe('Smarty US Street API verifier', () => {
  test('a known address comes back standardised from the candidate components', async (t) => {
    const stub = await startSmartyStub(t);
    const check = await verifier(stub).verify(WHITE_HOUSE);
    expect(check).toEqual({
      status: 'valid',
      address: { line1: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', state: 'DC', zip: '20500-0005' },
    });
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]?.query).toEqual({
      'auth-id': SMARTY_AUTH.id,
      'auth-token': SMARTY_AUTH.token,
      street: '1600 Pennsylvania Avenue NW',
      city: 'Washington',
      state: 'DC',
      zipcode: '20500',
      candidates: '1',
    });
  });

  test('no candidate (an empty array) is invalid', async (t) => {
    const stub = await startSmartyStub(t);
    const check = await verifier(stub).verify({
      line1: '99 Nowhere St',
      city: 'Washington',
      state: 'DC',
      zip: '20500',
    });
    expect(check).toEqual({ status: 'invalid', field: 'line1', reason: 'Smarty: no such address' });
  });

  test('dpv_match_code N is invalid', async (t) => {
    const stub = await startSmartyStub(t);
    const check = await verifier(stub).verify({
      line1: '1 Vacant Lot Rd',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(check).toMatchObject({ status: 'invalid', field: 'line1' });
  });

  test('what the local rules refuse never reaches Smarty', async (t) => {
    const stub = await startSmartyStub(t);
    expect(await verifier(stub).verify({ ...WHITE_HOUSE, state: 'ZZ' })).toMatchObject({
      status: 'invalid',
      field: 'state',
    });
    expect(stub.requests).toHaveLength(0);
  });

  test.for([
    ['429', { status: 429, raw: 'Too Many Requests' }, /429/],
    ['500', { status: 500, raw: 'Internal Server Error' }, /500/],
    ['402 (plan exhausted)', { status: 402, raw: 'Payment Required' }, /402/],
    ['200 with an object', { status: 200, body: { not: 'a list' } }, /list/],
    ['200 with a broken candidate', { status: 200, body: [{ delivery_line_1: '' }] }, /candidate/],
  ] as const)('%s is unverified', async ([, answer, reason], t) => {
    const stub = await startSmartyStub(t);
    stub.failWith.answer = answer;
    const check = await verifier(stub).verify(WHITE_HOUSE);
    expect(check.status).toBe('unverified');
    if (check.status === 'unverified') expect(check.reason).toMatch(reason);
  });

  test('wrong credentials (401) are unverified', async (t) => {
    const stub = await startSmartyStub(t);
    const check = await verifier(stub, { authToken: 'wrong' }).verify(WHITE_HOUSE);
    expect(check).toMatchObject({ status: 'unverified', reason: expect.stringMatching(/401/) });
  });

  test('a lookup that never answers is unverified within the budget', async (t) => {
    const stub = await startSmartyStub(t);
    stub.failWith.answer = 'hang';
    // The stub never answers, so only the budget's timer can end the lookup (its reason says so);
    // no upper bound read from a clock, which a loaded machine would break.
    const started = performance.now();
    const check = await verifier(stub, { timeoutMs: 250 }).verify(WHITE_HOUSE);
    const elapsed = performance.now() - started;
    expect(check).toEqual({ status: 'unverified', reason: 'no answer within 250 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(240);
  });
});
