/**
 * The application as a Fastify plugin. Tests import `buildApp`; `server.ts` alone listens.
 * Registration order is the architecture: infrastructure, services, routes (docs/architecture.md,
 * "Wiring").
 */
import type { Server } from 'node:http';
import Fastify, {
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/env.js';
import { clientErrorHandler, sendError, toAppError } from './errors/handler.js';
import { holdPrivateUmask } from './lib/data-dir.js';
import { connectionCap, descriptorLimit } from './lib/descriptors.js';
import { createFrontDoor, type FrontDoor } from './lib/front-door.js';
import { codesRedacted } from './lib/photo-code-log.js';
import { requestIdGenerator } from './lib/request-id.js';
import { requestLoggerFactory } from './lib/request-logger.js';
import { securityHeaders } from './lib/security-headers.js';
import configPlugin from './plugins/config.js';
import { INFRASTRUCTURE } from './plugins/index.js';
import { ROUTES } from './routes/index.js';
import { SERVICES, type ServiceOptions } from './services/index.js';

type AppOptions = ServiceOptions & {
  config: Config;
  /** Fastify's limit on one plugin's start, in ms (0: none). Tests pass 0: on a loaded machine a slow start is not a hung plugin. */
  pluginTimeout?: number | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    frontDoor: FrontDoor;
  }
}

const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_ID_HEADER = 'x-request-id';

function serverOptions(
  config: Config,
  logger: FastifyServerOptions['logger'],
  frontDoor: FrontDoor,
  genReqId: () => string,
): FastifyHttpOptions<Server> {
  const security = securityHeaders(config);
  return {
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // A socket with no traffic either way for twice that long is cut: a client that stops
    // reading its responses (slow read) can't hold a connection for ever.
    connectionTimeout: 2 * config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId,
    serverFactory: frontDoor.serverFactory as FastifyHttpOptions<Server>['serverFactory'],
    childLoggerFactory: requestLoggerFactory,
    // plugins/http-conventions.ts logs one line per request instead.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    forceCloseConnections: 'idle',
    // Node checks the timeouts only this often (30 s by default), so a slowloris client would
    // hold its socket that long whatever they say.
    http: { connectionsCheckingInterval: 1_000 },
    // Requests the HTTP parser refuses get the error body too (docs/contract.md, "Hosts and formats").
    clientErrorHandler,
    // The handler reads only `validation` from this Error, so its stack is not built.
    schemaErrorFormatter: (errors, dataVar) => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        return new Error(errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? 'invalid'}`).join(', '));
      } finally {
        Error.stackTraceLimit = limit;
      }
    },
    // Malformed percent-encoding is refused by the router before any hook or error handler
    // runs; answer it with the error body, CORS and the security headers, not Fastify's body.
    frameworkErrors: (error, request, reply) => {
      reply.header('Access-Control-Allow-Origin', '*');
      for (const [name, value] of security) reply.header(name, value);
      // The message quotes the URL, which may hold a photo code.
      request.log.info({ code: error.code }, codesRedacted(error.message));
      sendError(reply, toAppError(error));
    },
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

  await fastify.register(configPlugin, { config: opts.config });
  for (const plugin of INFRASTRUCTURE) await fastify.register(plugin);
  for (const plugin of SERVICES) await fastify.register(plugin, { terminal: opts.terminal });
  for (const plugin of ROUTES) await fastify.register(plugin);
}

export async function buildApp(
  config: Config,
  logger: FastifyServerOptions['logger'] = false,
  options: Omit<AppOptions, 'config'> = {},
): Promise<FastifyInstance> {
  // Everything created under DATA_DIR is private from the first file on (lib/data-dir.ts). The
  // umask is the process's: given back once the app has closed (this hook, added first, runs
  // last, after the services' own closing writes), or failed to start.
  const releaseUmask = holdPrivateUmask();
  const genReqId = requestIdGenerator();
  const frontDoor = createFrontDoor({ requestIdHeader: REQUEST_ID_HEADER, genReqId });
  const fastify = Fastify({
    ...serverOptions(config, logger, frontDoor, genReqId),
    ...(options.pluginTimeout === undefined ? {} : { pluginTimeout: options.pluginTimeout }),
  }).withTypeProvider<ZodTypeProvider>();
  fastify.addHook('onClose', (_instance, done) => {
    releaseUmask();
    done();
  });
  fastify.decorate('frontDoor', frontDoor);
  fastify.addHook('preClose', (done) => {
    frontDoor.shut();
    done();
  });
  // Slowloris: all headers within 10 s. Node wants this no longer than the request timeout
  // (else it applies it to the body too).
  fastify.server.headersTimeout = Math.min(10_000, config.REQUEST_TIMEOUT_MS);
  // Idle connections must not use up the file descriptors everything else needs (lib/descriptors.ts).
  const cap = connectionCap(config, descriptorLimit());
  if (cap.max !== undefined) fastify.server.maxConnections = cap.max;
  fastify.log.info(
    { maxConnections: cap.max ?? null, descriptorLimit: cap.limit ?? null, from: cap.source },
    'connection cap',
  );
  if (cap.aboveSafe) {
    fastify.log.warn(
      { maxConnections: cap.max, descriptorLimit: cap.limit },
      'MAX_CONNECTIONS leaves too few file descriptors for photos, the image cache and the store; lower it or raise the limit (ulimit -n)',
    );
  }
  try {
    await fastify.register(fp(app, { name: 'app' }), { config, terminal: options.terminal });
  } catch (err) {
    releaseUmask();
    throw err;
  }
  return fastify;
}
