import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { ConfigError, envSchema, loadConfig } from '../../src/config/env.js';

test('defaults give a working embedded set-up', () => {
  const c = loadConfig({});
  expect(c.ORDER_STORE).toBe('sqlite');
  expect(c.CAPTCHA_PROVIDER).toBe('altcha');
  expect(c.HIGH_VALUE_THRESHOLD).toBe(10_000);
  expect(c.publicBaseUrl).toBe('http://localhost:3000');
  expect(c.photosDir.endsWith('data/photos')).toBe(true);
});

test.each([
  [{ PORT: 'abc' }, 'PORT'],
  [{ ORDER_STORE: 'mysql' }, 'ORDER_STORE'],
  [{ ORDER_STORE: 'sheets' }, 'GOOGLE_SHEETS_ID'],
  [{ ORDER_STORE: 'postgres' }, 'DATABASE_URL'],
  [
    { ORDER_STORE: 'postgres', DATABASE_URL: 'postgres://x/y', GOOGLE_SHEETS_ID: 's' },
    'GOOGLE_APPLICATION_CREDENTIALS',
  ],
  [{ MIRROR_FLUSH_MS: '10' }, 'MIRROR_FLUSH_MS'],
  [{ ADMIN_TOKENS: 'short' }, 'ADMIN_TOKENS'],
  [{ CAPTCHA_PROVIDER: 'off', NODE_ENV: 'production' }, 'CAPTCHA_PROVIDER'],
  [{ CAPTCHA_PROVIDER: 'turnstile' }, 'CAPTCHA_SECRET'],
  [{ HIGH_VALUE_THRESHOLD: '12.345' }, 'HIGH_VALUE_THRESHOLD'],
  [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
  // Longer than a Node timer takes: it would fire after 1 ms, every millisecond.
  [{ IMAGE_CACHE_SWEEP_INTERVAL_MS: String(30 * 86_400_000) }, 'IMAGE_CACHE_SWEEP_INTERVAL_MS'],
  [{ LIBRARY_RESCAN_INTERVAL_MS: '3000000000' }, 'LIBRARY_RESCAN_INTERVAL_MS'],
  [{ SHUTDOWN_GRACE_MS: '2147483648' }, 'SHUTDOWN_GRACE_MS'],
  [{ PAYMENT_PROVIDER: 'paypal' }, 'PAYMENT_PROVIDER'],
  [{ PAYMENT_PROVIDER: 'stripe', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789' }, 'STRIPE_SECRET_KEY'],
  [{ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_0123456789' }, 'STRIPE_WEBHOOK_SECRET'],
  [{ STRIPE_SECRET_KEY: 'pk_test_0123456789' }, 'STRIPE_SECRET_KEY'],
  [{ STRIPE_WEBHOOK_SECRET: 'secret' }, 'STRIPE_WEBHOOK_SECRET'],
  [{ STRIPE_API_URL: 'localhost:12111' }, 'STRIPE_API_URL'],
  [{ DOWNLOAD_MAX: '0' }, 'DOWNLOAD_MAX'],
  [{ DOWNLOAD_LINK_SECRET: 'short' }, 'DOWNLOAD_LINK_SECRET'],
])('a bad value stops start-up naming the variable: %o', (env, name) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(name);
});

test('a duration of the longest a Node timer takes is accepted', () => {
  expect(loadConfig({ IMAGE_CACHE_SWEEP_INTERVAL_MS: '2147483647' }).IMAGE_CACHE_SWEEP_INTERVAL_MS).toBe(2_147_483_647);
});

test('dollar amounts become integer cents', () => {
  expect(loadConfig({ HIGH_VALUE_THRESHOLD: '75.5' }).HIGH_VALUE_THRESHOLD).toBe(7550);
});

test('.env.example lists every variable, and nothing else', async () => {
  const text = await readFile('.env.example', 'utf8');
  const listed = [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
  expect(new Set(listed)).toEqual(new Set(Object.keys(envSchema.shape)));
  // each variable has a comment line right above it
  const lines = text.split('\n');
  for (const name of Object.keys(envSchema.shape)) {
    const i = lines.findIndex((l) => new RegExp(`^#?\\s*${name}=`).test(l));
    expect(lines[i - 1]?.startsWith('#'), `${name} has a comment`).toBe(true);
  }
});
