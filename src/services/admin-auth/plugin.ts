/**
 * Admin authentication (docs/contract.md, "Admin authentication", "Roles"), as
 * `fastify.adminAuth`. Tokens come from ADMIN_TOKENS, else one generated into
 * DATA_DIR/admin-token (0600) and shown once on a terminal, never logged ("Hardening").
 * An `onRoute` hook checks every route: one naming the `adminToken` scheme without
 * `config.access` (or the reverse) is refused at registration, so no admin route can forget
 * its role. It also documents the role in OpenAPI and keeps `routes()` for the contract table.
 * Roles and rules: src/domain/roles.ts.
 *
 * Decisions:
 * - No credentials (or another scheme, which browsers send on their own) is 401 and not
 *   counted; only a wrong Bearer token counts.
 * - Wrong tokens count per client address and an accepted token clears nothing: otherwise a
 *   viewer's token could reset the count between guesses at the owner's ("Hardening, round 2").
 *   Once locked, every admin request from the address is 429 until the lockout ends, even
 *   with a right token; an order without credentials still goes on to the CAPTCHA.
 * - Each request is judged once (cached), so the rate-limit allow-list and the route's own
 *   check never count one wrong token twice.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor } from '../../domain/order.js';
import {
  ACTIONS,
  type AccessRule,
  accessNote,
  accessRule,
  actorFor,
  parseTokenEntry,
  photographerNote,
  type Role,
  type RouteAccess,
  roleAtLeast,
} from '../../domain/roles.js';
import { appError, errorCatalogue } from '../../errors/catalogue.js';
import { readOrCreateSecret } from '../../lib/secret-file.js';
import { ErrorBody } from '../../schemas/errors.js';
import { clientKey } from '../rate-limit/client-key.js';
import { bearerToken, generateAdminToken, tokenIndex } from './credentials.js';
import { FailureTracker } from './failure-tracker.js';
import { createStoredTokens, type StoredTokens } from './stored-tokens.js';
import type { AdminAuth, RouteAccessEntry } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    adminAuth: AdminAuth;
    /** The admin tokens the owner made in the dashboard (stored-tokens.ts). */
    adminTokens: Pick<StoredTokens, 'create' | 'list' | 'revoke'> & {
      /** ADMIN_TOKENS's entries (or the generated token) as the history names them, never the tokens. */
      environment(): { role: Role; by: Actor }[];
    };
  }
  interface FastifyContextConfig {
    /** Who may call the route with admin credentials (src/domain/roles.ts). */
    access?: RouteAccess;
    /**
     * What a `photographer:` token sees here, filtered to its own sales by the route
     * (`adminAuth.photographer(request)`). Absent: such a token is refused 403 `FORBIDDEN`, so a
     * route added later shows a photographer nothing until it says how it filters.
     */
    photographer?: string;
  }
}

export const ADMIN_TOKEN_FILE = 'admin-token';
const MIN_TOKEN_LENGTH = 24;

type Verdict =
  | { kind: 'none'; lockedMs: number }
  | { kind: 'admin'; actor: Actor; role: Role; photographer?: string }
  | { kind: 'wrong' }
  | { kind: 'locked'; lockedMs: number };

/** Where a generated token may be shown: the operator's terminal, never a log. */
export type Terminal = { write(text: string): unknown };

type AdminAuthOptions = {
  /** ADMIN_TOKENS entries, each with its optional role prefix (src/domain/roles.ts). */
  tokens: readonly string[];
  maxFailures: number;
  windowMs: number;
  now?: () => number;
  /** Tokens the owner made in the dashboard (stored-tokens.ts): looked up after ADMIN_TOKENS. */
  stored?: Pick<StoredTokens, 'find'>;
};

/** The AdminAuth interface over a fixed token list; no I/O. */
function createAdminAuth(opts: AdminAuthOptions): AdminAuth & {
  tracker: FailureTracker;
  /** A route's declared access: its check (undefined for routes without one); throws for a route that forgot it. */
  declare(
    route: RouteOptions,
  ): { rule: AccessRule; photographerView: string | undefined; hook: onRequestHookHandler } | undefined;
} {
  const entries = opts.tokens.map(parseTokenEntry);
  const find = tokenIndex(entries.map((e) => e.token));
  const tracker = new FailureTracker({ maxFailures: opts.maxFailures, windowMs: opts.windowMs, now: opts.now });
  const verdicts = new WeakMap<FastifyRequest, Verdict>();
  const table: RouteAccessEntry[] = [];

  function judge(request: FastifyRequest): Verdict {
    const cached = verdicts.get(request);
    if (cached) return cached;
    const key = clientKey(request.ip);
    const token = bearerToken(request.headers.authorization);
    const lockedMs = tracker.lockedFor(key);
    let verdict: Verdict;
    const index = token === undefined || lockedMs > 0 ? -1 : find(token);
    if (token === undefined) {
      verdict = { kind: 'none', lockedMs };
    } else if (lockedMs > 0) {
      // Locked out: the token is not even looked at.
      verdict = { kind: 'locked', lockedMs };
    } else if (index >= 0 || opts.stored?.find(token)) {
      // An accepted token never clears the address's count of wrong ones (docs/contract.md, "Hardening, round 2").
      const entry = index >= 0 ? entries[index] : undefined;
      const role = entry ? entry.role : (opts.stored?.find(token) as Role);
      verdict = { kind: 'admin', role, actor: actorFor(role, token) };
      if (entry?.photographer !== undefined) verdict.photographer = entry.photographer;
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

  function forbidden(role: Role, need: Role, what: string) {
    return appError('FORBIDDEN', { details: `A ${role} token may not ${what} (needs ${need})` });
  }

  /** The admin's role, or throws 401/429 like every admin-only route. */
  function authenticated(request: FastifyRequest): Role {
    const v = judge(request);
    if (v.kind === 'admin') return v.role;
    if (v.kind === 'locked' || (v.kind === 'none' && v.lockedMs > 0)) throw lockedOut(v.lockedMs);
    throw appError('UNAUTHORIZED', {
      details: v.kind === 'none' ? 'Send Authorization: Bearer <admin token>' : 'The admin token is not valid',
    });
  }

  function isAdmin(request: FastifyRequest): boolean {
    const v = judge(request);
    if (v.kind === 'admin') return true;
    if (v.kind === 'none') return false;
    if (v.kind === 'locked') throw lockedOut(v.lockedMs);
    throw appError('UNAUTHORIZED', { details: 'The admin token is not valid' });
  }

  /** A photographer's token, on a route that does not say what it shows them: refused. */
  function photographerRefused(request: FastifyRequest, photographerView: string | undefined, what: string) {
    const v = judge(request);
    if (v.kind !== 'admin' || v.photographer === undefined || photographerView !== undefined) return;
    throw appError('FORBIDDEN', { details: `A photographer token may not ${what} (it reads only its own sales)` });
  }

  /** The onRequest check of one route's declaration. */
  function guard(rule: AccessRule, photographerView: string | undefined, what: string): onRequestHookHandler {
    if (rule.public === undefined) {
      return async (request) => {
        const role = authenticated(request);
        if (!roleAtLeast(role, rule.role)) throw forbidden(role, rule.role, what);
        photographerRefused(request, photographerView, what);
      };
    }
    return async (request) => {
      if (!isAdmin(request)) return; // the public's way in is the route's own business
      const role = (judge(request) as { role: Role }).role;
      if (!roleAtLeast(role, rule.role)) throw forbidden(role, rule.role, what);
      photographerRefused(request, photographerView, what);
    };
  }

  return {
    tracker,
    isAdmin,
    actor(request) {
      const v = judge(request);
      return v.kind === 'admin' ? v.actor : 'customer';
    },
    role(request) {
      const v = judge(request);
      return v.kind === 'admin' ? v.role : undefined;
    },
    photographer(request) {
      const v = judge(request);
      return v.kind === 'admin' ? v.photographer : undefined;
    },
    allows(request, action) {
      const v = judge(request);
      return v.kind === 'admin' && roleAtLeast(v.role, ACTIONS[action].role);
    },
    check(request, action) {
      const role = authenticated(request);
      const need = ACTIONS[action].role;
      if (!roleAtLeast(role, need)) throw forbidden(role, need, ACTIONS[action].what);
    },
    routes: () => table,
    declare(route) {
      const security = (route.schema as { security?: Record<string, unknown>[] } | undefined)?.security;
      const adminScheme = security?.some((s) => 'adminToken' in s) ?? false;
      const open = security?.some((s) => Object.keys(s).length === 0) ?? false;
      const access = route.config?.access;
      const methods = [route.method].flat().filter((m) => m !== 'HEAD');
      const name = `${methods.join(',') || route.method} ${route.url}`;
      if (access === undefined) {
        if (adminScheme) {
          throw new Error(
            `${name} names the adminToken security scheme but declares no role: add config: { access: 'viewer' | 'staff' | 'owner' } (src/domain/roles.ts)`,
          );
        }
        return undefined;
      }
      if (!adminScheme) {
        throw new Error(`${name} declares config.access but its schema's security does not name adminToken`);
      }
      const rule = accessRule(access);
      if (open !== (rule.public !== undefined)) {
        throw new Error(
          open
            ? `${name} is open to the public (security [{}]) but its config.access does not say how (public: '...')`
            : `${name} declares public access but its security does not allow calls without credentials ([{}])`,
        );
      }
      const photographerView = route.config?.photographer;
      if (methods.length > 0) {
        const entry: RouteAccessEntry = { method: methods.join(','), url: route.url, ...rule };
        if (photographerView !== undefined) entry.photographer = photographerView;
        table.push(entry);
      }
      return { rule, photographerView, hook: guard(rule, photographerView, `call ${name}`) };
    },
  };
}

/**
 * Adds the role (and what a photographer's token sees) to the route's OpenAPI description and
 * 403 FORBIDDEN to its responses.
 */
function documentAccess(route: RouteOptions, rule: AccessRule, photographerView: string | undefined): void {
  const schema = route.schema as { description?: string; response?: Record<number, unknown> } | undefined;
  if (!schema) return;
  const note = `${accessNote(rule)} ${photographerNote(photographerView)}`;
  if (!schema.description?.includes(note)) {
    schema.description = schema.description ? `${schema.description}\n\n${note}` : note;
  }
  // 403 for a weaker role, a finer rule, or a photographer's token on a route that refuses it.
  if (
    rule.role !== 'viewer' ||
    rule.actions.length > 0 ||
    rule.public !== undefined ||
    photographerView === undefined
  ) {
    const response = schema.response ?? {};
    const existing = response[403] as { description?: string } | undefined;
    if (!existing?.description?.includes('FORBIDDEN')) {
      const text = `\`FORBIDDEN\`: ${errorCatalogue.FORBIDDEN.message}`;
      // A route that answers 403 for another reason (CAPTCHA_FAILED) lists both codes.
      response[403] = ErrorBody.describe(existing?.description ? `${existing.description}. ${text}` : text);
    }
    schema.response = response;
  }
}

/**
 * The tokens to accept: `ADMIN_TOKENS`, or else the one kept in DATA_DIR (generated on the
 * first start, and shown then on the terminal if there is one; an owner token).
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
    const stored = createStoredTokens(fastify.store.adminTokens);
    const auth = createAdminAuth({
      tokens,
      maxFailures: fastify.config.ADMIN_AUTH_MAX_FAILURES,
      windowMs: fastify.config.ADMIN_AUTH_WINDOW_MS,
      stored,
    });
    const environment = tokens.map(parseTokenEntry).map((e) => ({ role: e.role, by: actorFor(e.role, e.token) }));
    fastify.decorate('adminTokens', {
      create: stored.create,
      list: stored.list,
      revoke: stored.revoke,
      environment: () => environment,
    });
    // A token that is not one of ADMIN_TOKENS may be one the owner made: the snapshot of the
    // record's tokens is made current (at most a second old) before any route judges it, so a
    // revoked token fails on every server within about a second.
    const isEnvToken = tokenIndex(tokens.map((t) => parseTokenEntry(t).token));
    fastify.addHook('onRequest', async (request) => {
      const token = bearerToken(request.headers.authorization);
      if (token !== undefined && isEnvToken(token) < 0) await stored.fresh();
    });
    fastify.decorate('adminAuth', {
      isAdmin: auth.isAdmin,
      actor: auth.actor,
      role: auth.role,
      photographer: auth.photographer,
      allows: auth.allows,
      check: auth.check,
      routes: auth.routes,
    } satisfies AdminAuth);
    // Every route registered from here on: its declared access is checked, documented and
    // tabled; a route that names the admin scheme without one is refused.
    fastify.addHook('onRoute', (route) => {
      const declared = auth.declare(route);
      if (!declared) return;
      const existing = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [declared.hook, ...existing];
      documentAccess(route, declared.rule, declared.photographerView);
    });
  },
  { name: 'admin-auth', dependencies: ['config', 'store'] },
);
