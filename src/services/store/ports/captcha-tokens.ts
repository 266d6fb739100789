/**
 * The used CAPTCHA tokens port (docs/contract.md, "Hardening"): a token is accepted once,
 * across restarts and across processes sharing the store, until it expires. The store keeps
 * a hash of each spent token (never the token) until its expiry.
 */
import { z } from 'zod';

/** A spent token: its hash, kept until the token expires. */
export const SpentCaptchaToken = z.object({
  tokenHash: z.string().min(1),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type SpentCaptchaToken = z.infer<typeof SpentCaptchaToken>;

export interface CaptchaTokensPort {
  /**
   * Marks `hash` spent until `expiresAt`; true for the one caller that spent it, false when it
   * was spent already and has not expired. Atomic: of N concurrent spends (any processes) exactly one wins.
   */
  spend(hash: string, expiresAt: Date): Promise<boolean>;
  /** Un-spends `hash` (the check could not be completed, so the token was not used). */
  release(hash: string): Promise<void>;
}
