import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import webpush from 'web-push';
import { ConfigError } from '../../../src/config/env.js';
import { resolveVapidKeys, VAPID_KEY_FILE } from '../../../src/services/push/keys.js';
import { tempDir } from '../../helpers/build.js';

test('keys from the environment are used as given', async (t) => {
  const keys = webpush.generateVAPIDKeys();
  const got = await resolveVapidKeys({
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    dataDir: await tempDir(t),
  });
  expect(got).toMatchObject({ ...keys, source: 'env' });
});

test('without them, a pair is generated once (0600) and read back on the next start', async (t) => {
  const dataDir = await tempDir(t);
  const first = await resolveVapidKeys({ dataDir });
  expect(first).toMatchObject({ source: 'file', created: true });
  expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
  const file = path.join(dataDir, VAPID_KEY_FILE);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
    publicKey: first.publicKey,
    privateKey: first.privateKey,
  });

  const second = await resolveVapidKeys({ dataDir });
  expect(second).toMatchObject({ publicKey: first.publicKey, privateKey: first.privateKey, created: false });
});

test('a bad key stops start-up naming the variable', async (t) => {
  const keys = webpush.generateVAPIDKeys();
  const dataDir = await tempDir(t);
  await expect(
    resolveVapidKeys({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey, dataDir }),
  ).rejects.toThrow(/^VAPID_PUBLIC_KEY:/);
  await expect(
    resolveVapidKeys({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: 'a+b/c', dataDir }),
  ).rejects.toBeInstanceOf(ConfigError);
  await writeFile(path.join(dataDir, VAPID_KEY_FILE), `${'x'.repeat(120)}\n`);
  await expect(resolveVapidKeys({ dataDir })).rejects.toThrow(/delete it/);
});
