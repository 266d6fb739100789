/**
 * ALTCHA's asymmetry, on this machine: what a challenge costs the client to solve (at the
 * default ALTCHA_MAX_NUMBER) against what checking the solution costs the server, and the
 * server's throughput for issuing and checking. Baseline: one bare HMAC-SHA256 (the
 * signature check every verification must do anyway).
 * Target: solving costs the client at least 100 times what checking the solution costs the server.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createAltcha } from '../src/services/captcha/altcha.js';
import { openStore } from '../src/services/store/store.js';
import { median, printReport } from './lib/report.js';

const MAX_NUMBER = 100_000; // the default
const SOLVES = 5;
const VERIFIES = 2_000;

async function opsPerSecond(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return n / ((performance.now() - start) / 1000);
}

export default async function (): Promise<void> {
  // Spent tokens are kept in the store, as the app keeps them (a SQLite file here).
  const dir = await mkdtemp(path.join(tmpdir(), 'captcha-bench-'));
  const store = await openStore({ engine: 'sqlite', file: path.join(dir, 'orders.db') });
  const used = store.captchaTokens;
  const altcha = createAltcha({ hmacKey: randomBytes(32).toString('hex'), maxNumber: MAX_NUMBER, expiresS: 600, used });

  const solveMs: number[] = [];
  for (let i = 0; i < SOLVES; i++) {
    const challenge = await altcha.challenge();
    const started = performance.now();
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('unsolved');
    solveMs.push(performance.now() - started);
  }

  // Tokens solved up front, then checked back to back (each is accepted once).
  const tokens: string[] = [];
  const small = createAltcha({ hmacKey: 'bench-key-0123456789abcdef', maxNumber: 1000, expiresS: 600, used });
  for (let i = 0; i < VERIFIES; i++) {
    const challenge = await small.challenge();
    const solution = await solveChallenge({ challenge, deriveKey });
    tokens.push(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'));
  }
  const verifyPerS = await opsPerSecond(VERIFIES, (i) => small.verify(tokens[i] as string));
  const issuePerS = await opsPerSecond(VERIFIES, () => altcha.challenge());
  const hmacPerS = await opsPerSecond(VERIFIES * 10, (i) =>
    createHmac('sha256', 'bench-key').update(String(i)).digest('hex'),
  );
  await store.close();
  await rm(dir, { recursive: true, force: true });

  const solve = median(solveMs);
  const verifyMs = 1000 / verifyPerS;
  printReport('captcha (ALTCHA, SHA-256, deterministic counter)', [
    { name: `solve at ALTCHA_MAX_NUMBER=${MAX_NUMBER} (Node, 1 core), median`, value: solve, unit: 'ms' },
    {
      name: 'verify a solution (parse, signature, key, spent in the store)',
      value: verifyPerS,
      unit: 'ops/s',
      baseline: hmacPerS,
    },
    { name: 'issue a challenge', value: issuePerS, unit: 'ops/s', baseline: hmacPerS },
    {
      name: 'client cost to solve / server cost to verify',
      value: Math.round(solve / verifyMs),
      unit: 'x',
      target: '>= 100x',
      pass: solve / verifyMs >= 100,
    },
  ]);
}
