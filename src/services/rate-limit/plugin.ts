/**
 * Rate limits per client address (docs/contract.md, "Orders"), on @fastify/rate-limit with
 * `global: false`: a route opts in with `config: { rateLimit: fastify.rateLimits.<name> }`.
 * Routes that use the same configuration share one counter per client (its `groupId`).
 * Valid admin credentials are never limited (booth orders). The check runs in `onRequest`,
 * before the body is read. The counters live in this process: each instance counts alone.
 */
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appError } from '../../errors/catalogue.js';
import { clientKey } from './client-key.js';
import { GroupStore } from './group-store.js';

export interface RateLimits {
  orders: RateLimitOptions;
  feedback: RateLimitOptions;
  takedown: RateLimitOptions;
  captcha: RateLimitOptions;
  lookup: RateLimitOptions;
  codes: RateLimitOptions;
  quote: RateLimitOptions;
  faceSearch: RateLimitOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

const MINUTE_MS = 60_000;

export function rateLimitConfigs(limits: {
  orders: number;
  feedback: number;
  captcha: number;
  lookup: number;
  codes: number;
  quote: number;
  faceSearch: number;
}): RateLimits {
  const perMinute = (max: number, groupId: string): RateLimitOptions => ({ max, timeWindow: MINUTE_MS, groupId });
  return {
    orders: perMinute(limits.orders, 'orders'),
    feedback: perMinute(limits.feedback, 'feedback'),
    takedown: perMinute(limits.feedback, 'takedown'),
    captcha: perMinute(limits.captcha, 'captcha'),
    lookup: perMinute(limits.lookup, 'lookup'),
    codes: perMinute(limits.codes, 'codes'),
    quote: perMinute(limits.quote, 'quote'),
    faceSearch: perMinute(limits.faceSearch, 'face-search'),
  };
}

export default fp(
  async function rateLimitPlugin(fastify: FastifyInstance) {
    const { config, adminAuth } = fastify;

    /** Valid admin credentials skip the limits; wrong ones are simply limited like anyone. */
    const isAdmin = (request: FastifyRequest): boolean => {
      try {
        return adminAuth.isAdmin(request);
      } catch {
        return false;
      }
    };

    await fastify.register(rateLimit, {
      global: false,
      hook: 'onRequest',
      store: GroupStore,
      keyGenerator: (request) => clientKey(request.ip),
      allowList: (request) => isAdmin(request),
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return appError('RATE_LIMITED', {
          details: `At most ${context.max} requests a minute; try again in ${seconds} s`,
          headers: { 'Retry-After': String(seconds) },
        });
      },
    });

    fastify.decorate(
      'rateLimits',
      rateLimitConfigs({
        orders: config.RATE_LIMIT_ORDERS_PER_MIN,
        feedback: config.RATE_LIMIT_FEEDBACK_PER_MIN,
        captcha: config.RATE_LIMIT_CAPTCHA_PER_MIN,
        lookup: config.RATE_LIMIT_LOOKUP_PER_MIN,
        codes: config.RATE_LIMIT_CODES_PER_MIN,
        quote: config.RATE_LIMIT_QUOTE_PER_MIN,
        faceSearch: config.RATE_LIMIT_FACE_SEARCH_PER_MIN,
      }),
    );
  },
  { name: 'rate-limit', dependencies: ['config', 'admin-auth', 'error-handler'] },
);
