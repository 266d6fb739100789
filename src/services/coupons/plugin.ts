/** Decorates `fastify.coupons`: where codes given with an order or a quote are looked up (types.ts). */
import fp from 'fastify-plugin';
import { createMemoryCouponBook, type MemoryCouponBook } from './memory.js';

declare module 'fastify' {
  interface FastifyInstance {
    coupons: MemoryCouponBook;
  }
}

export default fp(
  async function couponsPlugin(fastify) {
    fastify.decorate('coupons', createMemoryCouponBook());
  },
  { name: 'coupons' },
);
