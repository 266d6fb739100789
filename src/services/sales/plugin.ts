/**
 * `fastify.sales`: the orders and sales figures as the caller may see them (sales.ts). The
 * admin routes ask it who sees what; they never cut orders to a photographer's share themselves.
 */
import fp from 'fastify-plugin';
import { createSales, type Sales } from './sales.js';

declare module 'fastify' {
  interface FastifyInstance {
    sales: Sales;
  }
}

export default fp(
  async function salesPlugin(fastify) {
    fastify.decorate('sales', createSales({ orders: fastify.store.orders, photos: fastify.photos }));
  },
  { name: 'sales', dependencies: ['store', 'photos'] },
);
