/** Decorates the instance with the validated configuration (`fastify.config`). */
import fp from 'fastify-plugin';
import type { Config } from '../config/env.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export default fp(
  async function configPlugin(fastify, opts: { config: Config }) {
    fastify.decorate('config', opts.config);
  },
  { name: 'config' },
);
