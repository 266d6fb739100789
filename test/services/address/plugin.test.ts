import { describe, expect, test } from 'vitest';
import { build } from '../../helpers/build.js';
import { SMARTY_AUTH, startSmartyStub, startUspsStub, USPS_CLIENT } from '../../support/address-stubs.js';

const WHITE_HOUSE = { line1: '1600 Pennsylvania Avenue NW', city: 'Washington', state: 'DC', zip: '20500' };

describe('address plugin', () => {
  test('local is the default and refuses a ZIP from another state', async (t) => {
    const app = await build(t);
    expect(app.addressVerifier.name).toBe('local');
    expect(await app.addressVerifier.verify({ ...WHITE_HOUSE, state: 'CA', zip: '12345' })).toMatchObject({
      status: 'invalid',
      field: 'zip',
    });
    expect(await app.addressVerifier.verify(WHITE_HOUSE)).toEqual({ status: 'valid', address: WHITE_HOUSE });
  });

  test('off lets everything through unverified', async (t) => {
    const app = await build(t, { env: { ADDRESS_VERIFIER: 'off' } });
    expect(app.addressVerifier.name).toBe('off');
    expect((await app.addressVerifier.verify({ ...WHITE_HOUSE, state: 'ZZ' })).status).toBe('unverified');
  });

  test('usps talks to USPS_BASE_URL with the configured credentials and budget', async (t) => {
    const stub = await startUspsStub(t);
    const app = await build(t, {
      env: {
        ADDRESS_VERIFIER: 'usps',
        USPS_BASE_URL: stub.url,
        USPS_CLIENT_ID: USPS_CLIENT.id,
        USPS_CLIENT_SECRET: USPS_CLIENT.secret,
        ADDRESS_VERIFY_TIMEOUT_MS: '1000',
      },
    });
    expect(app.addressVerifier.name).toBe('usps');
    expect(await app.addressVerifier.verify(WHITE_HOUSE)).toMatchObject({
      status: 'valid',
      address: { zip: '20500-0005' },
    });
    stub.failWith.address = 'hang';
    // The stub never answers, so only the budget's timer can end the lookup (its reason names
    // ADDRESS_VERIFY_TIMEOUT_MS);
    // no upper bound read from a clock, which a loaded machine would break.
    const started = performance.now();
    expect(await app.addressVerifier.verify(WHITE_HOUSE)).toEqual({
      status: 'unverified',
      reason: 'no answer within 1000 ms',
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(990);
  });

  test('smarty talks to SMARTY_BASE_URL with the configured credentials', async (t) => {
    const stub = await startSmartyStub(t);
    const app = await build(t, {
      env: {
        ADDRESS_VERIFIER: 'smarty',
        SMARTY_BASE_URL: stub.url,
        SMARTY_AUTH_ID: SMARTY_AUTH.id,
        SMARTY_AUTH_TOKEN: SMARTY_AUTH.token,
      },
    });
    expect(app.addressVerifier.name).toBe('smarty');
    expect(await app.addressVerifier.verify(WHITE_HOUSE)).toMatchObject({ status: 'valid' });
    expect(stub.requests).toHaveLength(1);
  });
});
