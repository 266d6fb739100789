/** Admin authentication (docs/contract.md, "Admin authentication" and "Roles"), as `fastify.adminAuth`. */
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/order.js';
import type { AccessRule, Action, Role } from '../../domain/roles.js';

/**
 * One route of the access table (`routes()`). `photographer`: what a `photographer:` token sees
 * there (its own sales only); absent, such a token is refused (403).
 */
export type RouteAccessEntry = AccessRule & { method: string; url: string; photographer?: string };

export interface AdminAuth {
  /**
   * For routes open to both (order submission: admin replaces CAPTCHA; push subscribe).
   * true: valid admin credentials. false: none sent. Wrong credentials throw 401 (429 while
   * the address is locked out). The route's declared role was checked already (onRequest).
   */
  isAdmin(request: FastifyRequest): boolean;
  /**
   * Who a request acts as, for the order history: `admin:`, `staff:` or `viewer:` and the first
   * 8 hex digits of the token's SHA-256 with valid admin credentials, else `customer`.
   */
  actor(request: FastifyRequest): Actor;
  /**
   * The photographer a `photographer:<name>:<token>` entry limits the request to (a viewer who
   * sees only the sales of that name's photos); undefined for every other caller. Routes that
   * let such a token in (`config.photographer`) must filter by it.
   */
  photographer(request: FastifyRequest): string | undefined;
  role(request: FastifyRequest): Role | undefined;
  /** Whether the request's admin credentials may do `action` (false without credentials). */
  allows(request: FastifyRequest, action: Action): boolean;
  /**
   * A finer rule inside a route (src/domain/roles.ts, ACTIONS): 403 FORBIDDEN unless the request's role may
   * do `action`; 401 without valid admin credentials. The route lists the action in its
   * `config.access.actions`, so the table and its description show it.
   */
  check(request: FastifyRequest, action: Action): void;
  /** Every route with declared access, as registered: what docs/contract.md's table is made of. */
  routes(): readonly RouteAccessEntry[];
}
