/**
 * A local Web Push service for tests: HTTPS on loopback with a certificate made at test time
 * (`selfsigned`, nothing outside npm). `egress` lets the notifier reach it: its host is
 * exempt from the public-address check (as PUSH_ALLOW_HOSTS would make it) and its
 * certificate trusted.
 * It does what FCM or Mozilla's autopush do with a push: checks the VAPID `Authorization`
 * header (ES256 JWT signed by the `k=` key, audience = this origin, not expired), decrypts the
 * aes128gcm body with the subscriber's keys (`http_ece`), records it, and answers with the
 * status the test scripted for that subscription (default 201).
 *
 *   const push = await startPushService(t);
 *   const sub = push.subscriber();          // { endpoint, keys: { p256dh, auth } }
 *   push.respond(sub.endpoint, [500, 500, 201]);
 *   ... createPushNotifier({ egress: push.egress, ... })
 *   push.received  // [{ endpoint, status, payload, vapid, ttl, ... }]
 */
import { createECDH, createPublicKey, type ECDH, randomBytes, randomUUID, verify } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import { pino } from 'pino';
import { generate } from 'selfsigned';
import type { TestContext } from 'vitest';
import webpush from 'web-push';
import { createPushNotifier } from '../../src/services/push/service.js';
import type { PushSubscriptionsPort } from '../../src/services/store/ports/push-subscriptions.js';
import type { TestApp } from '../helpers/build.js';
import { HeldAnswers } from './held-answers.js';

type VapidCheck = {
  valid: boolean;
  problem?: string;
  publicKey?: string;
  claims?: { aud?: string; exp?: number; sub?: string };
};

type ReceivedPush = {
  endpoint: string;
  /** What this service answered. */
  status: number;
  /** The decrypted body parsed as JSON (null when it could not be decrypted). */
  payload: unknown;
  decryptError?: string;
  vapid: VapidCheck;
  ttl: string | undefined;
  urgency: string | undefined;
  contentEncoding: string | undefined;
};

export type TestSubscriber = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
};

export type PushService = {
  origin: string;
  /** The notifier's `egress`: this service's host allowed (it is on loopback), its certificate trusted. */
  egress: { allow: ReadonlySet<string>; ca: string };
  ca: string;
  received: ReceivedPush[];
  /** A new browser: its own ECDH key pair and auth secret, an endpoint on this service. */
  subscriber(): TestSubscriber;
  /** The statuses to answer for this endpoint, in turn; the last one repeats. */
  respond(endpoint: string, statuses: number[], headers?: Record<string, string>): void;
  /** Pushes that reached `endpoint`. */
  to(endpoint: string): ReceivedPush[];
  /**
   * From now on, keeps each push unanswered (a service that hangs) until `release()`, which
   * sends the held ones their answers. `held` resolves once `n` are held.
   */
  hold(): void;
  held(n?: number): Promise<void>;
  release(): void;
  /** Pushes answered so far. */
  readonly answered: number;
  close(): Promise<void>;
};

function b64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Checks `Authorization: vapid t=<jwt>, k=<public key>` as a push service would. */
function checkVapid(header: string | undefined, origin: string): VapidCheck {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return { valid: false, problem: `no vapid authorization header: ${header}` };
  const [, jwt = '', k = ''] = m;
  const [h = '', p = '', s = ''] = jwt.split('.');
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) return { valid: false, problem: 'k is not a P-256 point', publicKey: k };
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const header_ = b64urlJson(h);
  const claims = b64urlJson(p) as VapidCheck['claims'] & object;
  const signed = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  const now = Date.now() / 1000;
  let problem: string | undefined;
  if (header_.alg !== 'ES256') problem = `alg ${String(header_.alg)}`;
  else if (!signed) problem = 'bad signature';
  else if (claims.aud !== origin) problem = `aud ${claims.aud} is not ${origin}`;
  else if (typeof claims.exp !== 'number' || claims.exp < now || claims.exp > now + 24 * 3600 + 60) {
    problem = `exp ${claims.exp}`;
  } else if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) problem = `sub ${claims.sub}`;
  return { valid: problem === undefined, problem, publicKey: k, claims };
}

export async function startPushService(t: TestContext): Promise<PushService> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 60_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const subscribers = new Map<string, { ecdh: ECDH; authSecret: Buffer }>();
  const scripts = new Map<string, { statuses: number[]; headers: Record<string, string> }>();
  const received: ReceivedPush[] = [];
  let origin = '';
  const gate = new HeldAnswers();

  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = `${origin}${req.url ?? ''}`;
      const sub = subscribers.get(endpoint);
      const script = scripts.get(endpoint);
      const status = script
        ? script.statuses.length > 1
          ? (script.statuses.shift() as number)
          : (script.statuses[0] ?? 201)
        : 201;
      let payload: unknown = null;
      let decryptError: string | undefined;
      if (sub) {
        try {
          const plain = decrypt(Buffer.concat(chunks), {
            version: 'aes128gcm',
            privateKey: sub.ecdh,
            authSecret: sub.authSecret,
          });
          payload = JSON.parse(plain.toString('utf8'));
        } catch (err) {
          decryptError = (err as Error).message;
        }
      } else {
        decryptError = 'unknown subscriber';
      }
      received.push({
        endpoint,
        status,
        payload,
        decryptError,
        vapid: checkVapid(req.headers.authorization, origin),
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
        contentEncoding: req.headers['content-encoding'],
      });
      gate.answer(() => {
        if (res.destroyed) return false; // the sender gave up waiting
        res.writeHead(status, {
          ...(status === 201 ? { location: `${endpoint}/msg/${randomUUID()}` } : {}),
          ...(script?.headers ?? {}),
        });
        res.end();
        return true;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.onTestFinished(close);

  return {
    origin,
    egress: { allow: new Set(['127.0.0.1']), ca: pems.cert },
    ca: pems.cert,
    received,
    subscriber() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const endpoint = `${origin}/push/${randomUUID()}`;
      subscribers.set(endpoint, { ecdh, authSecret });
      return {
        endpoint,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
      };
    },
    respond(endpoint, statuses, headers = {}) {
      scripts.set(endpoint, { statuses: [...statuses], headers });
    },
    to(endpoint) {
      return received.filter((r) => r.endpoint === endpoint);
    },
    hold: () => gate.hold(),
    held: (n) => gate.held(n),
    release: () => gate.release(),
    get answered() {
      return gate.answered;
    },
    close,
  };
}

/**
 * Swaps the app's push notifier for the real one pointed at a local push service (whose
 * certificate only its agent trusts), with one admin subscription unless `admin: false`.
 * Routes and services look the notifier up at call time.
 */
export async function withPushService(
  t: TestContext,
  app: TestApp,
  opts: { admin?: boolean } = {},
): Promise<PushService> {
  const service = await startPushService(t);
  const notifier = createPushNotifier({
    store: app.store.pushSubscriptions,
    vapid: webpush.generateVAPIDKeys(),
    subject: 'mailto:photos@example.com',
    publicBaseUrl: 'http://photos.test',
    log: pino({ level: 'silent' }),
    egress: service.egress,
    retryBaseMs: 10,
    maxAttempts: 2,
  });
  t.onTestFinished(() => notifier.close());
  (app as unknown as { push: typeof notifier }).push = notifier;
  if (opts.admin !== false) await saveSubscriber(app.store, service.subscriber(), 'admin');
  return service;
}

/** `sub` subscribed in a record (an app's, or a store opened alone): as admin, or to one order. */
export async function saveSubscriber(
  store: { pushSubscriptions: Pick<PushSubscriptionsPort, 'save'> },
  sub: TestSubscriber,
  scope: 'admin' | 'order',
  orderId: string | null = null,
): Promise<TestSubscriber> {
  await store.pushSubscriptions.save({
    endpoint: sub.endpoint,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
    scope,
    orderId,
    createdAt: new Date().toISOString(),
  });
  return sub;
}
