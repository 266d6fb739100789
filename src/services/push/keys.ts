/**
 * The VAPID key pair: `VAPID_PUBLIC_KEY`/`VAPID_PRIVATE_KEY`, or else generated once with
 * `web-push` and kept in `DATA_DIR/vapid-keys.json` (mode 0600, created atomically), so
 * browsers' subscriptions keep working across restarts.
 */
import path from 'node:path';
import { ConfigError } from '../../config/env.js';
import { readOrCreateSecret } from '../../lib/secret-file.js';
import { generateVapidKeys, type VapidKeys } from './web-push.js';

export const VAPID_KEY_FILE = 'vapid-keys.json';

const decodedLength = (key: string) => (/^[A-Za-z0-9_-]+=*$/.test(key) ? Buffer.from(key, 'base64url').length : -1);

/** Throws a ConfigError naming the variable when a key is not base64url of the right size. */
function checkVapidKeys(keys: VapidKeys, source: { publicName: string; privateName: string }): VapidKeys {
  if (decodedLength(keys.publicKey) !== 65 || Buffer.from(keys.publicKey, 'base64url')[0] !== 4) {
    throw new ConfigError(`${source.publicName}: must be a base64url P-256 public key (65 bytes uncompressed)`);
  }
  if (decodedLength(keys.privateKey) !== 32) {
    throw new ConfigError(`${source.privateName}: must be a base64url P-256 private key (32 bytes)`);
  }
  return keys;
}

export async function resolveVapidKeys(config: {
  VAPID_PUBLIC_KEY?: string | undefined;
  VAPID_PRIVATE_KEY?: string | undefined;
  dataDir: string;
}): Promise<VapidKeys & { source: 'env' | 'file'; created: boolean; file?: string }> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    const keys = checkVapidKeys(
      { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY },
      { publicName: 'VAPID_PUBLIC_KEY', privateName: 'VAPID_PRIVATE_KEY' },
    );
    return { ...keys, source: 'env', created: false };
  }
  const file = path.join(config.dataDir, VAPID_KEY_FILE);
  const secret = await readOrCreateSecret(file, {
    generate: async () => JSON.stringify(await generateVapidKeys()),
    minLength: 100,
  });
  let parsed: Partial<VapidKeys>;
  try {
    parsed = JSON.parse(secret.value) as Partial<VapidKeys>;
  } catch {
    throw new ConfigError(`${file}: not a JSON VAPID key pair; delete it to generate a new one`);
  }
  const keys = checkVapidKeys(
    { publicKey: String(parsed.publicKey ?? ''), privateKey: String(parsed.privateKey ?? '') },
    { publicName: `${file} publicKey`, privateName: `${file} privateKey` },
  );
  return { ...keys, source: 'file', created: secret.created, file };
}
