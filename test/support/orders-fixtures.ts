/**
 * Order-submission fixtures: an app over a small real photo library (JPEGs drawn with sharp)
 * with one event open for orders, valid bodies for both submission variants, and helpers to
 * solve a real ALTCHA challenge from the app and to read the mail outbox.
 *
 * Event `Anime Expo` (prefix AX26): photos 1–6, prices 4x6 $5.00, 5x7 $10.00, 8x10 $20.00,
 * default size 4x6, shipping $5.00, deadline 30 days ahead. Event `Other Con` (prefix OC):
 * photos 1–2, same prices.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, expect, type TestContext } from 'vitest';
import { z } from 'zod';
import { OUTBOX_DIR } from '../../src/services/notifier/transports/specs.js';
import { build, type TestApp, tempDir } from '../helpers/build.js';
import { expectMatchesOpenApi } from '../helpers/openapi-response.js';
import { altchaToken } from './captcha-altcha.js';
import { makeImage, writeEventJson, writePhoto } from './photos-fixtures.js';

export const EVENT = 'Anime Expo';
export const OTHER_EVENT = 'Other Con';
export const PREFIX = 'AX26';
export const PRICES = { '4x6': 5, '5x7': 10, '8x10': 20 };

export type OrdersAppOptions = {
  env?: Record<string, string>;
  /** Photos in `Anime Expo` (default 6). */
  photoCount?: number;
};

/** Defaults for order tests: local address check, a fast ALTCHA, mail to files, no rate limit in the way. */
export const ORDER_TEST_ENV: Record<string, string> = {
  ALTCHA_MAX_NUMBER: '2000',
  ADDRESS_VERIFIER: 'local',
  RATE_LIMIT_ORDERS_PER_MIN: '1000',
  // The outbox worker stays quiet during a test unless it is kicked or flushed.
  MAIL_RETRY_BASE_MS: '60000',
};

export async function writeLibrary(root: string, photoCount = 6): Promise<void> {
  const deadline = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const img = await makeImage({ width: 24, height: 16 });
  await writeEventJson(root, EVENT, {
    name: 'Anime Expo 2026',
    date: '2026-07-03',
    prefix: PREFIX,
    prices: PRICES,
    defaultSize: '4x6',
    shippingFee: 5,
    deadline,
  });
  for (let i = 1; i <= photoCount; i++) {
    await writePhoto(root, [EVENT, 'Day 1', 'Cosplay', `img${String(i).padStart(4, '0')}.jpg`], img);
  }
  await writeEventJson(root, OTHER_EVENT, { name: 'Other Con', prefix: 'OC', prices: PRICES, shippingFee: 5 });
  for (let i = 1; i <= 2; i++) await writePhoto(root, [OTHER_EVENT, 'D', 'S', `p${i}.jpg`], img);
}

/**
 * A stand-in for a test's context, for an app shared by the tests of one describe block
 * (call it in the block): what `build(t)` would clean up when a test finishes (the app, its
 * folder) runs after the block's last test, latest first. Only for tests that leave the app
 * as they found it; a test that changes it builds its own.
 */
export function blockContext(): TestContext {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return { onTestFinished: (fn: () => unknown) => cleanups.push(fn) } as unknown as TestContext;
}

export async function ordersApp(t: TestContext, opts: OrdersAppOptions = {}): Promise<TestApp> {
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'), opts.photoCount);
  return build(t, { dataDir, env: { ...ORDER_TEST_ENV, ...opts.env } });
}

/** A CAPTCHA token the app accepts: its own challenge, solved for real. */
export async function solvedCaptcha(app: TestApp): Promise<string> {
  const res = await app.inject({ url: '/api/captcha/challenge' });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  return altchaToken(res.json());
}

/** Variant A: two photos (default size) and a third as 8x10 x2, picked up: $50.00. */
export function bodyA(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventSlug: EVENT,
    photos: ['1', '2', { number: '3', size: '8x10', quantity: 2 }],
    customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 (555) 010-0000' },
    ...over,
  };
}

/** A shipping address the local verifier accepts. */
export const GOOD_ADDRESS = { line1: '123 Main St', city: 'Springfield', state: 'IL', zip: '62701' };

/** Variant B: ships; 1 (4x6) x2 = $10 + 2 (5x7) x1 = $10, shipping $5: $25.00. */
export function bodyB(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventSlug: EVENT,
    customerName: 'Grace Hopper',
    customerEmail: 'grace@example.com',
    customerPhone: '555-010-1234',
    fulfillmentType: 'ship',
    shippingAddress: '123 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    items: 'Photo #1 (4x6) x2 = $10.00; Photo #2 (5x7) x1 = $10.00',
    subtotal: '$20.00',
    shippingFee: '$5.00',
    total: '$25.00',
    ...over,
  };
}

/** The error body (docs/contract.md, "Hosts and formats"), nothing more. */
export const ErrorBody = z.strictObject({ error: z.string().min(1), code: z.string(), details: z.string() });

/** Asserts status, code, the error body (docs/contract.md, "Hosts and formats") and the OpenAPI declaration; returns the parsed details when JSON. */
export function expectError(
  res: LightMyRequestResponse,
  method: string,
  url: string,
  status: number,
  code: string,
): { error: string; details: string; parsed: unknown } {
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status, body: { code } });
  const body = ErrorBody.parse(res.json());
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expectMatchesOpenApi(method, url, res);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.details);
  } catch {
    parsed = undefined;
  }
  return { error: body.error, details: body.details, parsed };
}

export type Eml = { name: string; subject: string; to: string[]; text: string; attachments: string[] };

/** Every message the file transport wrote to DATA_DIR/outbox, parsed back. */
export async function outbox(dataDir: string): Promise<Eml[]> {
  const dir = path.join(dataDir, OUTBOX_DIR);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(
    names.map(async (name) => {
      const parsed = await simpleParser(await readFile(path.join(dir, name)));
      const to = parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((a) => a.address ?? '') : [];
      return {
        name,
        subject: parsed.subject ?? '',
        to,
        text: parsed.text ?? '',
        attachments: parsed.attachments.map((a) => a.filename ?? ''),
      };
    }),
  );
}
