/**
 * Service-account credentials for tests and benches: a fresh RSA key written as the JSON
 * file Google hands out, so the adapter's real JWT signing path runs. The public key lets
 * the emulator verify the signatures (`publicKeys` option).
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export type TestServiceAccount = { file: string; email: string; publicKey: string };

type KeyPair = { privateKey: string; publicKey: string };

function generate(): KeyPair {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

// An RSA key takes 0.2–1 s to generate on 2 cores; one per process (an immutable value,
// made on first use) keeps the suite quick. `fresh: true` makes a key of the test's own.
let shared: KeyPair | undefined;

export async function writeServiceAccount(
  dir: string,
  opts: { email?: string; fresh?: boolean } = {},
): Promise<TestServiceAccount> {
  const email = opts.email ?? 'orders-bot@photo-test.iam.gserviceaccount.com';
  if (!opts.fresh) shared ??= generate();
  const { privateKey, publicKey } = opts.fresh ? generate() : (shared as KeyPair);
  const file = path.join(dir, 'service-account.json');
  await writeFile(
    file,
    JSON.stringify({
      type: 'service_account',
      project_id: 'photo-test',
      private_key_id: 'test-key-1',
      private_key: privateKey,
      client_email: email,
      client_id: '100000000000000000001',
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
    { mode: 0o600 },
  );
  return { file, email, publicKey };
}
