/**
 * The application as a Fastify plugin. Tests import `buildApp`; `server.ts` alone listens.
 *
 * Registration order is the architecture:
 *   1. infrastructure  (config, errors, HTTP conventions, OpenAPI, readiness)
 *   2. services        (each decorates the instance with one narrow interface)
 *   3. routes          (depend on the interfaces only, never on sharp, nodemailer, ...)
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/env.js';
import errorHandler from './errors/handler.js';
import configPlugin from './plugins/config.js';
import httpConventions from './plugins/http-conventions.js';
import openapi from './plugins/openapi.js';
import readiness from './plugins/readiness.js';
import operationsRoutes from './routes/operations/index.js';

export type AppOptions = { config: Config };

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Fastify's constructor options: what must be fixed before any plugin runs. */
export function serverOptions(config: Config, logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    forceCloseConnections: 'idle',
  };
}

/** `TRUST_PROXY`: unset/false, true, or a comma-separated list of addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',').map((v) => v.trim());
}

async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);

  // 1. infrastructure
  await fastify.register(configPlugin, { config: opts.config });
  await fastify.register(errorHandler);
  await fastify.register(httpConventions);
  await fastify.register(openapi);
  await fastify.register(readiness);

  // 2. services

  // 3. routes
  await fastify.register(operationsRoutes);
}

export default fp(app, { name: 'app' });

/** A ready-to-use instance with the app registered (not listening). */
export async function buildApp(
  config: Config,
  logger: FastifyServerOptions['logger'] = false,
): Promise<FastifyInstance> {
  const fastify = Fastify(serverOptions(config, logger)).withTypeProvider<ZodTypeProvider>();
  // Slow clients (slowloris) are cut off: all headers within 10 s, the whole request
  // within REQUEST_TIMEOUT_MS (set through Fastify's requestTimeout above).
  fastify.server.headersTimeout = 10_000;
  await fastify.register(fp(app, { name: 'app' }), { config });
  return fastify;
}
