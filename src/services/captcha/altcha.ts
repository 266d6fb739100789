/**
 * ALTCHA, the self-hosted proof of work (docs/contract.md, "CAPTCHA"), with altcha-lib's v2
 * API, which the `altcha` widget 3.x speaks. The secret counter is drawn uniformly from the
 * whole range [0, ALTCHA_MAX_NUMBER], so a solver never knows where to start
 * ("Hardening, round 2"). The challenge is signed and carries its expiry, so issuing one
 * keeps no state; the store keeps which were redeemed until they expire: a token works once.
 */
import { createHash, randomInt } from 'node:crypto';
import { type Challenge, createChallenge, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import type { CaptchaTokensPort } from '../store/ports/captcha-tokens.js';

const ALTCHA_ALGORITHM = 'SHA-256';

export type AltchaOptions = {
  hmacKey: string;
  /** Upper bound of the secret counter (the work a solver must do). */
  maxNumber: number;
  /** Seconds a challenge stays valid. */
  expiresS: number;
  /** Where redeemed challenges are kept until they expire. */
  used: Pick<CaptchaTokensPort, 'spend'>;
};

const hex = z
  .string()
  .max(512)
  .regex(/^[0-9a-f]+$/i);

/** What the widget sends; parameters stay loose so a single added key breaks the signature. */
const AltchaPayload = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.string().max(32),
      nonce: hex,
      salt: hex,
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: hex,
      expiresAt: z.number().int().positive(),
    }),
    signature: hex,
  }),
  solution: z.object({
    counter: z.number().int().nonnegative(),
    derivedKey: z.string().max(256),
    time: z.number().optional(),
  }),
});

export type AltchaChallenge = Challenge;

function failed(details: string) {
  return appError('CAPTCHA_FAILED', { details });
}

/** Decodes the widget's base64 JSON payload; undefined when it is not one. */
function decodeAltchaPayload(token: string): z.infer<typeof AltchaPayload> | undefined {
  try {
    const parsed = AltchaPayload.safeParse(JSON.parse(Buffer.from(token, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function createAltcha(opts: AltchaOptions) {
  const used = opts.used;

  return {
    async challenge(): Promise<AltchaChallenge> {
      return createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost: 1,
        // randomInt's upper bound is exclusive: every counter of [0, maxNumber] is equally likely.
        counter: randomInt(0, opts.maxNumber + 1),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + opts.expiresS,
        hmacSignatureSecret: opts.hmacKey,
      });
    },

    /** Resolves when `token` is a valid, unexpired, unused solution; else throws 403 CAPTCHA_FAILED. */
    async verify(token: string): Promise<void> {
      const payload = decodeAltchaPayload(token);
      if (!payload) throw failed('The CAPTCHA token is not an ALTCHA solution');
      const { challenge, solution } = payload;
      if (challenge.parameters.algorithm !== ALTCHA_ALGORITHM) throw failed('The ALTCHA challenge was not issued here');

      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: challenge as Challenge,
          solution: solution as Solution,
          deriveKey,
          hmacSignatureSecret: opts.hmacKey,
        });
      } catch {
        throw failed('The ALTCHA solution is malformed');
      }
      if (result.expired) throw failed('The ALTCHA challenge has expired; solve a new one');
      if (result.invalidSignature) throw failed('The ALTCHA challenge was not issued here or was altered');
      if (!result.verified) throw failed('The ALTCHA solution is wrong');

      // Only verified solutions are kept, so forgeries cannot fill the store.
      const hash = createHash('sha256').update(`altcha:${challenge.signature.toLowerCase()}`).digest('base64url');
      if (!(await used.spend(hash, new Date(challenge.parameters.expiresAt * 1000)))) {
        throw failed('This CAPTCHA token has already been used; solve a new challenge');
      }
    },
  };
}
