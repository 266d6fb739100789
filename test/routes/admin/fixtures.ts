/**
 * Shared set-up of the admin, event, feedback and label route tests: an app over a small
 * photo library (one photo per event, event.json as given), orders created straight through
 * the store, and the request helpers every file uses.
 */
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from 'vitest';
import { expect } from 'vitest';
import type { NewOrder, OrderRecord, OrderStatus } from '../../../src/domain/order.js';
import { adminHeaders, build, type TestApp, tempDir } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { makeImage, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { newOrder } from '../../support/store-fixtures.js';

export { adminHeaders };

export const AX = 'AX2025';
export const BX = 'Bench Expo';

/** event.json of the two events most tests use. */
const DEFAULT_EVENTS: Record<string, Record<string, unknown>> = {
  [AX]: {
    name: 'Anime Expo 2025',
    date: '2025-07-03',
    prefix: 'AX25',
    prices: { '4x6': 5, '5x7': 10, '8x10': 20 },
    defaultSize: '4x6',
    shippingFee: 5,
  },
  [BX]: { name: 'Bench Expo', date: '2024-05-01', prefix: 'BX24', prices: { '4x6': 4.5 }, shippingFee: 3.25 },
};

export type AppOptions = { env?: Record<string, string>; events?: Record<string, Record<string, unknown>> };

/** An app whose photo library holds `events` (one small photo each). */
export async function appWithEvents(t: TestContext, opts: AppOptions = {}): Promise<TestApp> {
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'), opts.events ?? DEFAULT_EVENTS);
  return build(t, { dataDir, ...(opts.env ? { env: opts.env } : {}) });
}

async function writeLibrary(photosDir: string, events: Record<string, Record<string, unknown>>): Promise<void> {
  const jpeg = await makeImage();
  for (const [code, json] of Object.entries(events)) {
    await writePhoto(photosDir, [code, 'Day 1', 'Morning', 'IMG_0001.jpg'], jpeg);
    await writeEventJson(photosDir, code, json);
  }
}

/** A new order straight through the store, moved to `status` along the allowed moves (docs/contract.md, "Status and shipping"), and shipped if asked. */
export async function orderIn(
  app: TestApp,
  status: OrderStatus,
  over: Partial<NewOrder> & { shipped?: boolean; printed?: boolean } = {},
): Promise<OrderRecord> {
  const { shipped, printed, ...fields } = over;
  let order = await app.store.orders.create(newOrder(fields), { by: 'customer' });
  // A parcel goes out with its prints (docs/contract.md, "Fulfilment"): shipping marks them printed.
  if (status === 'void' && shipped) {
    order = (await app.store.orders.update(order.id, { status: 'paid' }, { by: 'admin' })).order;
    order = (await app.store.orders.setShipping(order.id, { shipped: true, printAll: true }, { by: 'admin' })).order;
    return (await app.store.orders.update(order.id, { status: 'void' }, { by: 'admin' })).order;
  }
  if (status !== 'pending') order = (await app.store.orders.update(order.id, { status }, { by: 'admin' })).order;
  if (printed) {
    const lines = order.items.map((_l, i) => i);
    order = (await app.store.orders.markPrinted(new Map([[order.id, lines]]), { by: 'admin' }))[0]?.order ?? order;
  }
  if (shipped) {
    const patch = { shipped: true, trackingNumber: '1Z999', printAll: true };
    order = (await app.store.orders.setShipping(order.id, patch, { by: 'admin' })).order;
  }
  return order;
}

export const errorBody = { error: expect.any(String), code: expect.any(String), details: expect.any(String) };

/** Asserts the status and the error body (docs/contract.md, "Hosts and formats") with its code (`call` checks it against OpenAPI). */
export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toEqual(errorBody);
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'error']);
  expect(body.code, body.details).toBe(code);
}

type Inject = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  admin?: boolean;
};

/** `app.inject` with admin credentials unless `admin: false`; checks the answer against OpenAPI. */
export async function call(app: TestApp, opts: Inject): Promise<LightMyRequestResponse> {
  const method = opts.method ?? 'GET';
  const res = await app.inject({
    method,
    url: opts.url,
    headers: {
      ...(opts.admin === false ? {} : adminHeaders),
      // A string payload is sent as the JSON text it is (inject would call it text/plain).
      ...(typeof opts.payload === 'string' ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
  });
  if (res.statusCode < 500) expectMatchesOpenApi(method, opts.url.split('?')[0] as string, res);
  return res;
}
