/**
 * The order store service, decorated as `fastify.store`: the adapter `ORDER_STORE` picks,
 * behind the read cache (`ORDER_CACHE_TTL_MS`). Start-up connects and migrates (a
 * misconfigured store stops it, naming the variable); `/readyz` reports `health()`; the
 * store closes last on shutdown (Fastify closes plugins in reverse order, and every service
 * that uses the store is registered after it).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createCachedStore } from './cached-store.js';
import { createStore } from './create-store.js';
import type { OrderStore } from './port.js';

declare module 'fastify' {
  interface FastifyInstance {
    store: OrderStore;
  }
}

async function storePlugin(fastify: FastifyInstance): Promise<void> {
  const { config } = fastify;
  const log = fastify.log.child({ component: 'store' });
  const inner = await createStore(config, log);
  await inner.init();
  const store = createCachedStore(inner, { ttlMs: config.ORDER_CACHE_TTL_MS, log });

  fastify.decorate('store', store);
  fastify.readiness.add('store', () => store.health());
  fastify.addHook('onClose', async () => {
    await store.close();
  });
}

export default fp(storePlugin, { name: 'store', dependencies: ['config', 'readiness'] });
