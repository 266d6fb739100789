/**
 * Admin authentication (SPEC §6), decorated as `fastify.adminAuth`.
 *
 * Tokens come from `ADMIN_TOKENS`. With none configured, the first start generates one and
 * stores it in `DATA_DIR/admin-token` (mode 0600); later starts reuse it. The token itself is
 * shown once, on the operator's terminal when there is one (`terminal`, given by server.ts
 * when stdout is a TTY), and never logged: logs are collected and kept by other systems, so
 * they only name the file (docs/contract.md, "Hardening").
 *
 * How a route uses it:
 *   admin only:  { onRequest: fastify.adminAuth.requireAdmin,
 *                  schema: { security: [{ adminToken: [] }],
 *                            response: { ..., ...errorResponses('UNAUTHORIZED', 'RATE_LIMITED') } } }
 *                (onRequest, so an unauthenticated caller gets 401 before its body is even read)
 *   either:      if (!fastify.adminAuth.isAdmin(request)) await fastify.captcha.verify(...)
 *
 * Decisions:
 * - No credentials (no header, an empty one, or another scheme such as Basic) is 401 and is
 *   NOT counted as a failure: it is not a guess at a token, and browsers send such headers
 *   on their own. Only a wrong Bearer token counts.
 * - The (N+1)th wrong token within the window is answered 429 already, and from then on
 *   every request from that address that needs or offers admin credentials is 429 with
 *   `Retry-After` until the lockout ends, even with a right token. An order submission
 *   without credentials from a locked address is not an admin request and goes on to the
 *   CAPTCHA as usual.
 * - A right token forgives the address's earlier failures.
 * - Each request is judged once (the verdict is cached per request), so a rate-limit
 *   allow-list check and the route's own check never count one wrong token twice.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Actor, adminActor } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { readOrCreateSecret } from '../../lib/secret-file.js';
import { clientKey } from '../rate-limit/client-key.js';
import { bearerToken, generateAdminToken, tokenMatcher } from './credentials.js';
import { FailureTracker } from './failure-tracker.js';
import type { AdminAuth } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    adminAuth: AdminAuth;
  }
}

export const ADMIN_TOKEN_FILE = 'admin-token';
const MIN_TOKEN_LENGTH = 24;

type Verdict =
  | { kind: 'none'; lockedMs: number }
  | { kind: 'admin'; actor: Actor }
  | { kind: 'wrong' }
  | { kind: 'locked'; lockedMs: number };

/** Where a generated token may be shown: the operator's terminal, never a log. */
export type Terminal = { write(text: string): unknown };

export type AdminAuthOptions = {
  tokens: readonly string[];
  maxFailures: number;
  windowMs: number;
  now?: () => number;
};

/** The AdminAuth interface over a fixed token list; no I/O. */
export function createAdminAuth(opts: AdminAuthOptions): AdminAuth & { tracker: FailureTracker } {
  const matches = tokenMatcher(opts.tokens);
  const tracker = new FailureTracker({ maxFailures: opts.maxFailures, windowMs: opts.windowMs, now: opts.now });
  const verdicts = new WeakMap<FastifyRequest, Verdict>();

  function judge(request: FastifyRequest): Verdict {
    const cached = verdicts.get(request);
    if (cached) return cached;
    const key = clientKey(request.ip);
    const token = bearerToken(request.headers.authorization);
    const lockedMs = tracker.lockedFor(key);
    let verdict: Verdict;
    if (token === undefined) {
      verdict = { kind: 'none', lockedMs };
    } else if (lockedMs > 0) {
      // Locked out: the token is not even looked at.
      verdict = { kind: 'locked', lockedMs };
    } else if (matches(token)) {
      tracker.reset(key);
      verdict = { kind: 'admin', actor: adminActor(token) };
    } else {
      const nowLockedMs = tracker.recordFailure(key);
      verdict = nowLockedMs > 0 ? { kind: 'locked', lockedMs: nowLockedMs } : { kind: 'wrong' };
      request.log.info({ client: key, locked: nowLockedMs > 0 }, 'wrong admin token');
    }
    verdicts.set(request, verdict);
    return verdict;
  }

  function lockedOut(lockedMs: number) {
    const seconds = Math.max(1, Math.ceil(lockedMs / 1000));
    return appError('RATE_LIMITED', {
      details: `Too many wrong admin tokens from this address; try again in ${seconds} s`,
      headers: { 'Retry-After': String(seconds) },
    });
  }

  return {
    tracker,
    async requireAdmin(request) {
      const v = judge(request);
      if (v.kind === 'admin') return;
      if (v.kind === 'locked' || (v.kind === 'none' && v.lockedMs > 0)) throw lockedOut(v.lockedMs);
      throw appError('UNAUTHORIZED', {
        details: v.kind === 'none' ? 'Send Authorization: Bearer <admin token>' : 'The admin token is not valid',
      });
    },
    isAdmin(request) {
      const v = judge(request);
      if (v.kind === 'admin') return true;
      if (v.kind === 'none') return false;
      if (v.kind === 'locked') throw lockedOut(v.lockedMs);
      throw appError('UNAUTHORIZED', { details: 'The admin token is not valid' });
    },
    actor(request) {
      const v = judge(request);
      return v.kind === 'admin' ? v.actor : 'customer';
    },
  };
}

/**
 * The tokens to accept: `ADMIN_TOKENS`, or else the one kept in DATA_DIR (generated on the
 * first start, and shown then on the terminal if there is one).
 */
async function resolveTokens(fastify: FastifyInstance, terminal: Terminal | undefined): Promise<string[]> {
  const { config } = fastify;
  if (config.adminTokens.length > 0) return config.adminTokens;
  const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
  const secret = await readOrCreateSecret(file, { generate: generateAdminToken, minLength: MIN_TOKEN_LENGTH });
  if (secret.created) {
    fastify.log.warn(
      { file },
      `Admin token generated and stored in ${file} (readable by this user only). ` +
        `Send it as "Authorization: Bearer <token>" to the admin API${terminal ? '; it is shown on the terminal this once' : ''}. ` +
        'Set ADMIN_TOKENS to choose your own.',
    );
    terminal?.write(`\n  Admin token (shown only this once; kept in ${file}):\n\n    ${secret.value}\n\n`);
  } else {
    fastify.log.info(`Admin token: none in ADMIN_TOKENS, using the one stored in ${file}`);
    if (secret.exposed) fastify.log.warn(`${file} is readable by other users; chmod 600 it`);
  }
  return [secret.value];
}

export default fp(
  async function adminAuthPlugin(fastify: FastifyInstance, opts: { terminal?: Terminal }) {
    const tokens = await resolveTokens(fastify, opts.terminal);
    const auth = createAdminAuth({
      tokens,
      maxFailures: fastify.config.ADMIN_AUTH_MAX_FAILURES,
      windowMs: fastify.config.ADMIN_AUTH_WINDOW_MS,
    });
    fastify.decorate('adminAuth', {
      requireAdmin: auth.requireAdmin,
      isAdmin: auth.isAdmin,
      actor: auth.actor,
    } satisfies AdminAuth);
  },
  { name: 'admin-auth', dependencies: ['config'] },
);
