/**
 * The services, in the order the app registers them (src/app.ts, layer 2). Each is a named
 * plugin declaring the plugins it needs as `dependencies`, so Fastify refuses to start when
 * one is registered before what it needs (test/services/index.test.ts checks this list too).
 * The store comes first so it is closed last, after every service that writes to it.
 * Services that need each other both ways (photo codes, notifier) look the later one up when called.
 */
import type { FastifyPluginAsync } from 'fastify';
import address from './address/plugin.js';
import adminAuth, { type Terminal } from './admin-auth/plugin.js';
import businessSettings from './business-settings/plugin.js';
import captcha from './captcha/plugin.js';
import downloads from './downloads/plugin.js';
import events from './events/plugin.js';
import faces from './faces/plugin.js';
import finderArrivals from './finder/arrivals-plugin.js';
import photoCodes from './finder/codes-plugin.js';
import finder from './finder/plugin.js';
import images from './images/plugin.js';
import intake from './intake/plugin.js';
import labels from './labels/plugin.js';
import mirror from './mirror/plugin.js';
import notifier from './notifier/plugin.js';
import orderReads from './order-reads/plugin.js';
import orderChanges from './orders/changes-plugin.js';
import orderIntake from './orders/plugin.js';
import payments from './payments/plugin.js';
import photos from './photos/plugin.js';
import printing from './printing/plugin.js';
import prints from './prints/plugin.js';
import push from './push/plugin.js';
import rateLimits from './rate-limit/plugin.js';
import sales from './sales/plugin.js';
import store from './store/plugin.js';
import takedowns from './takedowns/plugin.js';

/** Given to every service; only admin-auth reads it. */
export type ServiceOptions = {
  /** The operator's terminal, when stdout is one: a generated admin token is shown there, never logged. */
  terminal?: Terminal | undefined;
};

export const SERVICES: FastifyPluginAsync<ServiceOptions>[] = [
  store,
  businessSettings,
  mirror,
  photoCodes,
  adminAuth,
  rateLimits,
  captcha,
  photos,
  images,
  downloads,
  intake,
  events,
  labels,
  prints,
  printing,
  address,
  notifier,
  push,
  finder,
  finderArrivals,
  payments,
  orderIntake,
  orderChanges,
  orderReads,
  sales,
  takedowns,
  faces,
];
