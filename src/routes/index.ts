/**
 * The route areas, in the order the app registers them. Each depends on the services'
 * interfaces and src/routes/common only, never on each other (test/routes/imports.test.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { named } from '../lib/plugin-name.js';
import faceStatusRoutes from './admin/faces.js';
import adminRoutes from './admin/index.js';
import intakeRoutes from './admin/intake.js';
import meRoutes from './admin/me.js';
import mirrorRoutes from './admin/mirror.js';
import salesRoutes from './admin/sales.js';
import tokenRoutes from './admin/tokens.js';
import captchaRoutes from './captcha/index.js';
import couponRoutes from './coupons/index.js';
import downloadRoutes from './downloads/index.js';
import eventRoutes from './events/index.js';
import feedbackRoutes from './feedback/index.js';
import fulfilmentRoutes from './fulfilment/index.js';
import faceSearchRoutes from './gallery/face-search.js';
import finderRoutes from './gallery/finder.js';
import galleryRoutes from './gallery/index.js';
import photoLinkRoutes from './gallery/photo-link.js';
import photoLookupRoutes from './gallery/photo-lookup.js';
import takedownRequestRoutes from './gallery/takedown.js';
import imageRoutes from './images/index.js';
import labelRoutes from './labels/index.js';
import operationsRoutes from './operations/index.js';
import orderRoutes from './orders/index.js';
import orderLookupRoutes from './orders/lookup.js';
import verifyRoutes from './orders/verify.js';
import paymentRoutes from './payments/index.js';
import pushRoutes from './push/index.js';
import quoteRoutes from './quote/index.js';
import settingsRoutes from './settings/index.js';
import takedownRoutes from './takedowns/index.js';

const ROUTE_AREAS: (FastifyPluginAsyncZod | FastifyPluginAsync)[] = [
  operationsRoutes,
  captchaRoutes,
  galleryRoutes,
  imageRoutes,
  photoLookupRoutes, // GET /api/photos/{event}/{photo}
  photoLinkRoutes, // /event/{code}/photo/{number}: the app's page, with link-preview tags
  takedownRequestRoutes, // POST /api/photos/{event}/{photo}/takedown
  takedownRoutes, // the owner's takedown queue
  finderRoutes, // GET /api/finder/{code}
  pushRoutes,
  eventRoutes,
  adminRoutes,
  salesRoutes, // GET /api/orders/summary/breakdown, /api/orders/lines
  mirrorRoutes, // GET /api/admin/mirror
  intakeRoutes, // GET /api/admin/intake
  meRoutes, // GET /api/admin/me: the caller's role
  settingsRoutes, // GET/PUT /api/settings: the business settings (owner)
  tokenRoutes, // /api/admin/tokens: helpers' tokens (owner)
  feedbackRoutes,
  labelRoutes,
  fulfilmentRoutes, // print files, batch labels, CSV export
  orderRoutes,
  orderLookupRoutes, // POST /api/orders/lookup
  quoteRoutes, // POST /api/quote
  couponRoutes, // /api/coupons (admin)
  downloadRoutes, // GET /api/downloads/{token}
  paymentRoutes, // POST /api/payments/stripe/webhook (raw body, own JSON parser)
  verifyRoutes, // /api/orders/verify (the confirmation link)
  faceSearchRoutes, // /api/events/{eventCode}/face-search and selfie takedowns
  faceStatusRoutes, // GET /api/faces/status
];

export const ROUTES = ROUTE_AREAS.map(named);
