/**
 * Admin authentication (SPEC §6), decorated as `fastify.adminAuth`.
 * `Authorization: Bearer <token>`; tokens compared in constant time; repeated failures
 * from one address lock it out (429) for the window.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/order.js';

export interface AdminAuth {
  /**
   * preHandler for admin routes: 401 UNAUTHORIZED (with WWW-Authenticate) without or with
   * wrong credentials, 429 RATE_LIMITED while the client's address is locked out.
   */
  requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * For routes open to both (order submission: admin replaces CAPTCHA; push subscribe).
   * true: valid admin credentials. false: none sent. Wrong credentials throw like requireAdmin.
   */
  isAdmin(request: FastifyRequest): boolean;
  /**
   * Who a request acts as, for the order history: `admin:<first 8 hex of the token's SHA-256>`
   * with valid admin credentials, else `customer` (call it after requireAdmin / isAdmin).
   */
  actor(request: FastifyRequest): Actor;
}
