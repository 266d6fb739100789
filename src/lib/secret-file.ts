/**
 * Secrets the service makes for itself when the environment gives none (the admin token, the
 * ALTCHA key): generated once into a file under DATA_DIR readable by the owner only. Written
 * to a private temporary file and hard-linked into place, so a second process starting at the
 * same moment, or a crash half-way, never leaves a half-written secret; the loser of a race
 * reads the winner's value.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from './logger.js';

export type SecretFile = {
  value: string;
  /** true when this call generated the secret (and wrote the file). */
  created: boolean;
  file: string;
  /** true when group or others may read the file (it should be 0600). */
  exposed: boolean;
};

export type SecretFileOptions = {
  /** Makes a new secret (called only when the file has none). */
  generate: () => string | Promise<string>;
  /** Minimum length of a usable stored value (shorter means the file was edited or damaged). */
  minLength: number;
};

export async function readOrCreateSecret(file: string, opts: SecretFileOptions): Promise<SecretFile> {
  const existing = await readSecret(file, opts.minLength);
  if (existing) return existing;

  await mkdir(path.dirname(file), { recursive: true });
  const value = await opts.generate();
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${value}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process created it first: use theirs.
    const theirs = await readSecret(file, opts.minLength);
    if (theirs) return theirs;
    throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
  return { value, created: true, file, exposed: false };
}

async function readSecret(file: string, minLength: number): Promise<SecretFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const value = text.trim();
  if (value.length < minLength) {
    throw new Error(
      `${file} does not hold a usable secret (at least ${minLength} characters); delete it to generate a new one`,
    );
  }
  const { mode } = await stat(file);
  return { value, created: false, file, exposed: (mode & 0o077) !== 0 };
}

/**
 * The key the environment gives (`configured`), or else a random one kept in the file
 * `fileName` under DATA_DIR (made on the first start): its making, and a file others may read,
 * logged. `what` names the key for the log ("ALTCHA HMAC key").
 */
export async function configuredOrStoredKey(
  app: { config: { dataDir: string }; log: Logger },
  key: { configured: string | undefined; fileName: string; what: string; encoding: 'hex' | 'base64url' },
): Promise<string> {
  if (key.configured) return key.configured;
  const file = path.join(app.config.dataDir, key.fileName);
  const secret = await readOrCreateSecret(file, {
    generate: () => randomBytes(32).toString(key.encoding),
    minLength: 16,
  });
  if (secret.created) app.log.info(`${key.what} generated and stored in ${file}`);
  if (secret.exposed) app.log.warn(`${file} is readable by other users; chmod 600 it`);
  return secret.value;
}
