/** Spent CAPTCHA tokens on either engine (ports/captcha-tokens.ts): table `captcha_tokens`. */
import { type CaptchaTokensPort, SpentCaptchaToken } from '../ports/captcha-tokens.js';
import type { Db } from './db.js';
import { recordTable } from './record-table.js';

export const CAPTCHA_TOKENS = recordTable('captcha_tokens', SpentCaptchaToken);
/** A unique key decides between concurrent spends; an expired row is taken over. */
const SPEND_SQL = CAPTCHA_TOKENS.insertSql(
  [],
  'ON CONFLICT (token_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE captcha_tokens.expires_at <= ?',
);

/** Expired hashes are deleted at most this often, by the spend that comes along. */
const PURGE_EVERY_MS = 60_000;

export class SqlCaptchaTokens implements CaptchaTokensPort {
  private lastPurge = 0;

  constructor(private readonly db: Db) {}

  // `relaxed` (sql/db.ts): a spend is followed by the order it let through, whose durable commit
  // takes it to the disk; a crash of the process loses neither.
  spend(hash: string, expiresAt: Date): Promise<boolean> {
    const now = new Date();
    return this.db.transaction(async (tx) => {
      if (now.getTime() - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = now.getTime();
        await tx.run('DELETE FROM captcha_tokens WHERE expires_at <= ?', [now.toISOString()]);
      }
      const spent = await tx.run(SPEND_SQL, [
        ...CAPTCHA_TOKENS.values({ tokenHash: hash, expiresAt: expiresAt.toISOString() }),
        now.toISOString(),
      ]);
      return spent === 1;
    }, 'relaxed');
  }

  async release(hash: string): Promise<void> {
    await this.db.transaction((tx) => tx.run('DELETE FROM captcha_tokens WHERE token_hash = ?', [hash]), 'relaxed');
  }
}
