/**
 * Test helpers for ALTCHA: solve a challenge for real with altcha-lib's solver and encode
 * the result exactly as the `altcha` widget 3.x does (base64 of the JSON payload).
 */
import { type Challenge, createChallenge, type Solution, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

export type AltchaPayload = { challenge: Challenge; solution: Solution };

export async function solveAltcha(challenge: Challenge): Promise<AltchaPayload> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  if (!solution) throw new Error('could not solve the ALTCHA challenge');
  return { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
}

/** What the widget puts in its hidden field: btoa(JSON.stringify({ challenge, solution })). */
export function encodeAltcha(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
}

export async function altchaToken(challenge: Challenge): Promise<string> {
  return encodeAltcha(await solveAltcha(challenge));
}

/** A challenge made outside the service with the given key (expired ones, foreign keys). */
export async function makeChallenge(
  hmacKey: string,
  opts: { counter?: number; expiresAt?: number; algorithm?: string } = {},
): Promise<Challenge> {
  return createChallenge({
    algorithm: opts.algorithm ?? 'SHA-256',
    cost: 1,
    counter: opts.counter ?? 500,
    deriveKey,
    expiresAt: opts.expiresAt ?? Math.floor(Date.now() / 1000) + 600,
    hmacSignatureSecret: hmacKey,
  });
}
