/**
 * The application as a Fastify plugin. Tests import `buildApp`; `server.ts` alone listens.
 *
 * Registration order is the architecture:
 *   1. infrastructure  (config, errors, HTTP conventions, OpenAPI, readiness)
 *   2. services        (each decorates the instance with one narrow interface)
 *   3. routes          (depend on the interfaces only, never on sharp, nodemailer, ...)
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
import errorHandler, { clientErrorHandler, sendError, toAppError } from './errors/handler.js';
import { holdPrivateUmask } from './lib/data-dir.js';
import { connectionCap, descriptorLimit } from './lib/descriptors.js';
import { createFrontDoor, type FrontDoor } from './lib/front-door.js';
import { codesRedacted } from './lib/photo-code-log.js';
import { requestIdGenerator } from './lib/request-id.js';
import { requestLoggerFactory } from './lib/request-logger.js';
import { securityHeaders } from './lib/security-headers.js';
import configPlugin from './plugins/config.js';
import dataDir from './plugins/data-dir.js';
import httpConventions from './plugins/http-conventions.js';
import openapi from './plugins/openapi.js';
import readiness from './plugins/readiness.js';
import web from './plugins/web.js';
import faceStatusRoutes from './routes/admin/faces.js';
import adminRoutes from './routes/admin/index.js';
import intakeRoutes from './routes/admin/intake.js';
import meRoutes from './routes/admin/me.js';
import mirrorRoutes from './routes/admin/mirror.js';
import salesRoutes from './routes/admin/sales.js';
import tokenRoutes from './routes/admin/tokens.js';
import captchaRoutes from './routes/captcha/index.js';
import couponRoutes from './routes/coupons/index.js';
import downloadRoutes from './routes/downloads/index.js';
import eventRoutes from './routes/events/index.js';
import feedbackRoutes from './routes/feedback/index.js';
import fulfilmentRoutes from './routes/fulfilment/index.js';
import faceSearchRoutes from './routes/gallery/face-search.js';
import finderRoutes from './routes/gallery/finder.js';
import galleryRoutes from './routes/gallery/index.js';
import photoLinkRoutes from './routes/gallery/photo-link.js';
import photoLookupRoutes from './routes/gallery/photo-lookup.js';
import takedownRequestRoutes from './routes/gallery/takedown.js';
import imageRoutes from './routes/images/index.js';
import labelRoutes from './routes/labels/index.js';
import operationsRoutes from './routes/operations/index.js';
import orderRoutes from './routes/orders/index.js';
import orderLookupRoutes from './routes/orders/lookup.js';
import verifyRoutes from './routes/orders/verify.js';
import paymentRoutes from './routes/payments/index.js';
import pushRoutes from './routes/push/index.js';
import quoteRoutes from './routes/quote/index.js';
import settingsRoutes from './routes/settings/index.js';
import takedownRoutes from './routes/takedowns/index.js';
import address from './services/address/plugin.js';
import adminAuth, { type Terminal } from './services/admin-auth/plugin.js';
import businessSettings from './services/business-settings/plugin.js';
import captcha from './services/captcha/plugin.js';
import downloads from './services/downloads/plugin.js';
import events from './services/events/plugin.js';
import faces from './services/faces/plugin.js';
import finderArrivals from './services/finder/arrivals-plugin.js';
import photoCodes from './services/finder/codes-plugin.js';
import finder from './services/finder/plugin.js';
import images from './services/images/plugin.js';
import intake from './services/intake/plugin.js';
import labels from './services/labels/plugin.js';
import mirror from './services/mirror/plugin.js';
import notifier from './services/notifier/plugin.js';
import orderChanges from './services/orders/changes-plugin.js';
import orderIntake from './services/orders/plugin.js';
import payments from './services/payments/plugin.js';
import photos from './services/photos/plugin.js';
import printing from './services/printing/plugin.js';
import prints from './services/prints/plugin.js';
import push from './services/push/plugin.js';
import rateLimits from './services/rate-limit/plugin.js';
import store from './services/store/plugin.js';
import takedowns from './services/takedowns/plugin.js';

type AppOptions = {
  config: Config;
  /** The operator's terminal, when stdout is one: a generated admin token is shown there, never logged. */
  terminal?: Terminal | undefined;
  /** Fastify's limit on one plugin's start, in ms (0: none; Fastify's default 10 s when unset). Tests pass 0: on a loaded machine a slow start is not a hung plugin. */
  pluginTimeout?: number | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Fast paths tried before the router (lib/front-door.ts). */
    frontDoor: FrontDoor;
  }
}

const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_ID_HEADER = 'x-request-id';

/** Fastify's constructor options: what must be fixed before any plugin runs. */
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
    // Fast paths (cached gallery pages) answer before the router; the rest is Fastify's.
    serverFactory: frontDoor.serverFactory as FastifyHttpOptions<Server>['serverFactory'],
    childLoggerFactory: requestLoggerFactory,
    // plugins/http-conventions.ts logs one line per request instead.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    forceCloseConnections: 'idle',
    // Node checks headersTimeout/requestTimeout only every connectionsCheckingInterval
    // (30 s by default), so a slowloris client would hold its socket for 30 s whatever the
    // timeouts say; checking every second makes them mean what they say.
    http: { connectionsCheckingInterval: 1_000 },
    // Requests the HTTP parser refuses (malformed, headers too large, too slow) get the
    // error body (docs/contract.md, "Hosts and formats") too.
    clientErrorHandler,
    // Fastify's default builds an Error with a stack for every refused body; the handler only
    // reads `validation` from it, so the stack is skipped (see AppError).
    schemaErrorFormatter: (errors, dataVar) => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        return new Error(errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? 'invalid'}`).join(', '));
      } finally {
        Error.stackTraceLimit = limit;
      }
    },
    // Malformed percent-encoding (`/event/%E0%A4%A`) is refused by the router before any hook
    // or error handler runs; answer it with the error body (docs/contract.md, "Hosts and formats"),
    // CORS and the security headers, not Fastify's own body.
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

  // 1. infrastructure
  await fastify.register(configPlugin, { config: opts.config });
  await fastify.register(dataDir); // private before anything is written to it
  await fastify.register(errorHandler);
  await fastify.register(httpConventions);
  await fastify.register(openapi);
  await fastify.register(readiness);
  await fastify.register(web); // the browser app; before the gallery routes, whose paths it shares

  // 2. services
  await fastify.register(store); // first, so it is closed last (Fastify closes in reverse order)
  await fastify.register(businessSettings); // needs store: name, return address, public URL for labels, cards, mail
  await fastify.register(mirror); // needs store; the spreadsheet mirror's worker
  await fastify.register(photoCodes); // needs store: the issued codes the finder answers
  await fastify.register(adminAuth, { terminal: opts.terminal });
  await fastify.register(rateLimits); // needs adminAuth (admins are not limited)
  await fastify.register(captcha);
  await fastify.register(photos);
  await fastify.register(images); // needs photos
  await fastify.register(intake); // needs photos and images: new photos' codes and thumbnails
  await fastify.register(events); // needs photos and store
  await fastify.register(finder); // needs photos and photoCodes
  await fastify.register(labels);
  await fastify.register(prints); // needs photos and events
  await fastify.register(printing); // needs store, prints and events: the booth's printers over IPP
  await fastify.register(address);
  await fastify.register(notifier); // needs store; mail outbox worker
  await fastify.register(push); // needs store
  await fastify.register(finderArrivals); // needs photos, store, push, notifier: photo code notices
  await fastify.register(payments); // needs store; PAYMENT_PROVIDER, null without one
  await fastify.register(orderIntake); // needs events, photos, captcha, address, notifier, push, payments
  await fastify.register(orderChanges); // needs store, address, notifier, push, payments, printing
  await fastify.register(downloads); // needs store and photos
  await fastify.register(takedowns); // needs store, photos, images, notifier, push
  await fastify.register(faces); // needs store, photos, images, events; FACE_SEARCH=off starts nothing

  // 3. routes
  await fastify.register(operationsRoutes);
  await fastify.register(captchaRoutes);
  await fastify.register(galleryRoutes);
  await fastify.register(imageRoutes);
  await fastify.register(photoLookupRoutes); // GET /api/photos/{event}/{photo}
  await fastify.register(photoLinkRoutes); // /event/{code}/photo/{number}: the app's page, with link-preview tags
  await fastify.register(takedownRequestRoutes); // POST /api/photos/{event}/{photo}/takedown
  await fastify.register(takedownRoutes); // the owner's takedown queue
  await fastify.register(finderRoutes); // GET /api/finder/{code}
  await fastify.register(pushRoutes);
  await fastify.register(eventRoutes);
  await fastify.register(adminRoutes);
  await fastify.register(salesRoutes); // GET /api/orders/summary/breakdown
  await fastify.register(mirrorRoutes); // GET /api/admin/mirror
  await fastify.register(intakeRoutes); // GET /api/admin/intake
  await fastify.register(meRoutes); // GET /api/admin/me: the caller's role
  await fastify.register(settingsRoutes); // GET/PUT /api/settings: the business settings (owner)
  await fastify.register(tokenRoutes); // /api/admin/tokens: helpers' tokens (owner)
  await fastify.register(feedbackRoutes);
  await fastify.register(labelRoutes);
  await fastify.register(fulfilmentRoutes); // print files, batch labels, CSV export
  await fastify.register(orderRoutes);
  await fastify.register(orderLookupRoutes); // POST /api/orders/lookup
  await fastify.register(quoteRoutes); // POST /api/quote
  await fastify.register(couponRoutes); // /api/coupons (admin)
  await fastify.register(downloadRoutes); // GET /api/downloads/{token}
  await fastify.register(paymentRoutes); // POST /api/payments/stripe/webhook (raw body, own JSON parser)
  await fastify.register(verifyRoutes); // /api/orders/verify (the confirmation link)
  await fastify.register(faceSearchRoutes); // /api/events/{eventCode}/face-search and selfie takedowns
  await fastify.register(faceStatusRoutes); // GET /api/faces/status
}

/** A ready-to-use instance with the app registered (not listening). */
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
  // Slow clients (slowloris) are cut off: all headers within 10 s, the whole request
  // within REQUEST_TIMEOUT_MS (set through Fastify's requestTimeout above). Node wants the
  // headers timeout no longer than the request timeout (else it applies it to the body too).
  fastify.server.headersTimeout = Math.min(10_000, config.REQUEST_TIMEOUT_MS);
  // Connections over the cap are closed at once, so that idle ones can't use up the file
  // descriptors everything else needs (lib/descriptors.ts).
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
