/**
 * A CAPTCHA token is accepted once across restarts and across processes sharing a store
 * (docs/contract.md, "Hardening"): spent tokens are kept in the store until they expire.
 */
import { expect, test } from 'vitest';
import { captchaTokenOf } from '../../../src/services/captcha/token.js';
import { build, tempDir } from '../../helpers/build.js';
import { altchaToken } from '../../support/captcha-altcha.js';
import { startSiteverifyStub } from '../../support/captcha-siteverify-stub.js';
import { usePostgresServer } from '../../support/postgres-server.js';

const pg = usePostgresServer();
const HMAC_KEY = 'test-altcha-hmac-key-0123456789';
type T = Parameters<typeof build>[0];

/** An app with a route that checks a token the way the order routes do. */
async function checkout(t: T, opts: { dataDir?: string; env?: Record<string, string> } = {}) {
  const app = await build(t, {
    dataDir: opts.dataDir ?? (await tempDir(t)),
    noReady: true,
    env: { ALTCHA_MAX_NUMBER: '2000', ALTCHA_HMAC_KEY: HMAC_KEY, ...opts.env },
  });
  app.post('/test/checkout', async (request) => {
    await app.captcha.verify(captchaTokenOf(request), request.ip);
    return { accepted: true };
  });
  await app.ready();
  return {
    app,
    challenge: async () => (await app.inject({ url: '/api/captcha/challenge' })).json(),
    submit: async (token: string) => {
      const res = await app.inject({ method: 'POST', url: '/test/checkout', payload: { captchaToken: token } });
      return { status: res.statusCode, code: res.statusCode === 200 ? null : (res.json().code as string) };
    },
  };
}

test('ALTCHA on SQLite: a token used once is refused after a restart', async (t) => {
  const dataDir = await tempDir(t);
  const first = await checkout(t, { dataDir });
  const token = await altchaToken(await first.challenge());
  expect(await first.submit(token)).toEqual({ status: 200, code: null });
  await first.app.close();
  const second = await checkout(t, { dataDir });
  expect(await second.submit(token)).toEqual({ status: 403, code: 'CAPTCHA_FAILED' });
  // a fresh token still works after the restart
  expect(await second.submit(await altchaToken(await second.challenge()))).toEqual({ status: 200, code: null });
});

test('ALTCHA on PostgreSQL: a token used on one server is refused by a second on the same database; of concurrent uses exactly one wins', async (t) => {
  const env = { ORDER_STORE: 'postgres', DATABASE_URL: await pg().freshDatabase(t) };
  const a = await checkout(t, { env });
  const b = await checkout(t, { env });
  const token = await altchaToken(await a.challenge());
  expect(await a.submit(token)).toEqual({ status: 200, code: null });
  expect(await b.submit(token)).toEqual({ status: 403, code: 'CAPTCHA_FAILED' });

  const raced = await altchaToken(await b.challenge());
  const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).submit(raced)));
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  expect(results.filter((r) => r.code === 'CAPTCHA_FAILED')).toHaveLength(5);
});

test('siteverify (Turnstile): a token accepted once is refused after a restart without asking the provider again', async (t) => {
  const stub = await startSiteverifyStub(t);
  const dataDir = await tempDir(t);
  const env = { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 'provider-secret-key', CAPTCHA_VERIFY_URL: stub.url };
  const first = await checkout(t, { dataDir, env });
  expect(await first.submit('good')).toEqual({ status: 200, code: null });
  await first.app.close();
  const second = await checkout(t, { dataDir, env });
  expect(await second.submit('good')).toEqual({ status: 403, code: 'CAPTCHA_FAILED' });
  expect(stub.received).toHaveLength(1);
});
