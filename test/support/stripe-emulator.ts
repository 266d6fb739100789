/**
 * A loopback HTTP server that speaks the few Stripe API calls the payments service makes,
 * for the real `stripe` client pointed at it (`host`, `port`, `protocol`, which
 * STRIPE_API_URL sets):
 *
 *   POST /v1/checkout/sessions        checkout.sessions.create
 *   GET  /v1/checkout/sessions/{id}   checkout.sessions.retrieve
 *   POST /v1/refunds                  refunds.create (by payment_intent)
 *
 * and the hosted page a customer pays on (the session's `url`):
 *
 *   GET  /pay/{id}    a form with "Pay" and "Cancel"
 *   POST /pay/{id}    pays: the session completes, `checkout.session.completed` is delivered
 *                     to the webhook URL (when one is set) and the browser goes to success_url
 *
 * Behaviour kept from the real service, because the provider depends on it:
 * - Bodies are form-encoded with bracketed keys (`line_items[0][price_data][currency]`).
 * - Every call needs `Authorization: Bearer <secret key>`: 401 otherwise.
 * - An `Idempotency-Key` seen before answers the first response again (and creates nothing).
 * - Errors have Stripe's shape `{ error: { type, code?, message, param? } }`; a payment below
 *   $0.50 is `amount_too_small`; an unknown session or payment is 404 `resource_missing`; a
 *   second refund is 400 `charge_already_refunded`.
 * - Webhook deliveries are signed as Stripe signs them (`stripe.webhooks.generateTestHeaderString`
 *   with the endpoint secret), as `POST` with `Stripe-Signature` and a JSON body.
 *
 * For tests it records every request, can answer the next calls with a fault (`failNext`),
 * and builds signed events of its own (`signedEvent`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

const EMULATOR_SECRET_KEY = 'sk_test_emulator0123456789';
const EMULATOR_WEBHOOK_SECRET = 'whsec_emulator0123456789';

export type EmulatedSession = {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string | null;
  cancel_url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
  /** Not part of Stripe's answer (it needs `expand`); kept for assertions. */
  line_items: { quantity: number; currency: string; unit_amount: number; name: string; description?: string }[];
  /** Not part of Stripe's answer: the payment intent's metadata. */
  payment_intent_metadata: Record<string, string>;
};

export type EmulatedRefund = {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  status: 'succeeded';
  created: number;
};

export type RecordedRequest = { method: string; path: string; idempotencyKey: string | null };

export type StripeEmulator = {
  /** `http://127.0.0.1:<port>`: the value for STRIPE_API_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where deliveries go (the app's `/api/payments/stripe/webhook`); unset: none are sent. */
  webhookUrl: string | undefined;
  sessions: Map<string, EmulatedSession>;
  refunds: EmulatedRefund[];
  requests: RecordedRequest[];
  /** Every delivery made, with the app's status code. */
  deliveries: { type: string; status: number }[];
  /** Answers the next `count` API calls with this status and a Stripe error body. */
  failNext(status: number, count?: number): void;
  /** The customer pays (as POST /pay/{id} does); returns the delivery's signed payload. */
  pay(sessionId: string): Promise<SignedEvent>;
  /** Resolves once every delivery started so far has been answered (Stripe delivers after answering). */
  settled(): Promise<void>;
  /** A signed event of any type around `object`, as Stripe would deliver it. */
  signedEvent(type: string, object: unknown, opts?: { secret?: string; timestamp?: number }): SignedEvent;
  close(): Promise<void>;
};

export type SignedEvent = { id: string; payload: string; signature: string };

const rand = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` form fields → nested objects and arrays, as Stripe reads them. */
function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[segment] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[i + 1] as string);
      container[segment] ??= nextIsIndex ? [] : {};
      node = container[segment] as Record<string, unknown>;
    });
  }
  return root;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
}

const invalid = (message: string, param?: string, code?: string) =>
  new ApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      text += c;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': rand('req') });
  res.end(text);
}

/** Without `expand`, Stripe's session has no line items; the emulator's bookkeeping fields stay out too. */
function publicSession(s: EmulatedSession): Omit<EmulatedSession, 'line_items' | 'payment_intent_metadata'> {
  const { line_items: _l, payment_intent_metadata: _m, ...rest } = s;
  return rest;
}

export async function startStripeEmulator(opts: { webhookUrl?: string } = {}): Promise<StripeEmulator> {
  const sessions = new Map<string, EmulatedSession>();
  const refunds: EmulatedRefund[] = [];
  const requests: RecordedRequest[] = [];
  const deliveries: { type: string; status: number }[] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const faults: number[] = [];
  const pending = new Set<Promise<void>>();
  let base = '';

  function signedEvent(type: string, object: unknown, o: { secret?: string; timestamp?: number } = {}): SignedEvent {
    const id = rand('evt');
    const payload = JSON.stringify(
      {
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: nowSeconds(),
        type,
        livemode: false,
        pending_webhooks: 1,
        data: { object },
      },
      null,
      2,
    );
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: o.secret ?? EMULATOR_WEBHOOK_SECRET,
      ...(o.timestamp === undefined ? {} : { timestamp: o.timestamp }),
    });
    return { id, payload, signature };
  }

  async function deliver(type: string, event: SignedEvent): Promise<void> {
    if (!emulator.webhookUrl) return;
    const res = await fetch(emulator.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature },
      body: event.payload,
    });
    await res.arrayBuffer();
    deliveries.push({ type, status: res.status });
  }

  function createSession(p: Record<string, unknown>): EmulatedSession {
    if (p.mode !== 'payment') throw invalid('mode must be payment here', 'mode');
    if (typeof p.success_url !== 'string') throw invalid('Missing required param: success_url.', 'success_url');
    const items = p.line_items;
    if (!Array.isArray(items) || items.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    const lineItems = items.map((raw, i) => {
      const item = raw as { quantity?: string; price_data?: Record<string, unknown> };
      const pd = item.price_data as
        | { currency?: string; unit_amount?: string; product_data?: { name?: string; description?: string } }
        | undefined;
      const quantity = Number(item.quantity);
      const unit = Number(pd?.unit_amount);
      if (!pd?.currency) throw invalid('Missing currency', `line_items[${i}][price_data][currency]`);
      if (!Number.isInteger(unit) || unit < 0)
        throw invalid('Invalid integer', `line_items[${i}][price_data][unit_amount]`);
      if (!Number.isInteger(quantity) || quantity < 1) throw invalid('Invalid quantity', `line_items[${i}][quantity]`);
      if (!pd.product_data?.name) throw invalid('Missing name', `line_items[${i}][price_data][product_data][name]`);
      return {
        quantity,
        currency: pd.currency,
        unit_amount: unit,
        name: pd.product_data.name,
        ...(pd.product_data.description ? { description: pd.product_data.description } : {}),
      };
    });
    const currency = lineItems[0]?.currency as string;
    if (lineItems.some((l) => l.currency !== currency)) throw invalid('All line items must share a currency');
    const total = lineItems.reduce((s, l) => s + l.quantity * l.unit_amount, 0);
    if (total < 50) {
      throw invalid('The Checkout Session total must be at least $0.50 usd', undefined, 'amount_too_small');
    }
    const id = rand('cs_test');
    const intentData = p.payment_intent_data as { metadata?: Record<string, string> } | undefined;
    const session: EmulatedSession = {
      id,
      object: 'checkout.session',
      url: `${base}/pay/${id}`,
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: total,
      amount_total: total,
      currency,
      client_reference_id: typeof p.client_reference_id === 'string' ? p.client_reference_id : null,
      customer_email: typeof p.customer_email === 'string' ? p.customer_email : null,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: null,
      success_url: p.success_url,
      cancel_url: typeof p.cancel_url === 'string' ? p.cancel_url : null,
      created: nowSeconds(),
      expires_at: nowSeconds() + 24 * 3600,
      livemode: false,
      line_items: lineItems,
      payment_intent_metadata: intentData?.metadata ?? {},
    };
    sessions.set(id, session);
    return session;
  }

  function sessionOf(id: string): EmulatedSession {
    const s = sessions.get(id);
    if (!s) {
      throw new ApiError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such checkout.session: '${id}'`,
        param: 'session',
      });
    }
    return s;
  }

  function createRefund(p: Record<string, unknown>): EmulatedRefund {
    const pi = p.payment_intent;
    if (typeof pi !== 'string') throw invalid('Missing required param: payment_intent.', 'payment_intent');
    const session = [...sessions.values()].find((s) => s.payment_intent === pi);
    if (!session) {
      throw new ApiError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such payment_intent: '${pi}'`,
        param: 'payment_intent',
      });
    }
    if (refunds.some((r) => r.payment_intent === pi)) {
      throw invalid(`Charge for ${pi} has already been refunded.`, undefined, 'charge_already_refunded');
    }
    const refund: EmulatedRefund = {
      id: rand('re'),
      object: 'refund',
      amount: p.amount === undefined ? session.amount_total : Number(p.amount),
      currency: session.currency,
      payment_intent: pi,
      charge: `ch_${pi.slice(3)}`,
      status: 'succeeded',
      created: nowSeconds(),
    };
    refunds.push(refund);
    return refund;
  }

  /** What Stripe delivers after a refund: the charge, refunded. */
  function refundedCharge(session: EmulatedSession, refund: EmulatedRefund) {
    return {
      id: refund.charge,
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: refund.amount,
      refunded: refund.amount >= session.amount_total,
      currency: session.currency,
      payment_intent: refund.payment_intent,
      metadata: session.payment_intent_metadata,
    };
  }

  async function pay(sessionId: string): Promise<SignedEvent> {
    const s = sessionOf(sessionId);
    if (s.status !== 'open') throw new Error(`session ${sessionId} is ${s.status}`);
    s.status = 'complete';
    s.payment_status = 'paid';
    s.payment_intent = rand('pi');
    const event = signedEvent('checkout.session.completed', publicSession(s));
    await deliver('checkout.session.completed', event);
    return event;
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key });
    const body = await readBody(req);
    if (req.headers.authorization !== `Bearer ${emulator.secretKey}`) {
      sendJson(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided: ****' },
      });
      return;
    }
    const fault = faults.shift();
    if (fault !== undefined) {
      sendJson(res, fault, { error: { type: 'api_error', message: 'An emulated fault' } });
      return;
    }
    const replayKey = key && req.method === 'POST' ? `${url.pathname} ${key}` : null;
    const earlier = replayKey ? idempotent.get(replayKey) : undefined;
    if (earlier) {
      sendJson(res, earlier.status, earlier.body);
      return;
    }
    let status = 200;
    let answer: unknown;
    const after: (() => Promise<void>)[] = [];
    try {
      const params = parseStripeForm(body);
      const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        answer = publicSession(createSession(params));
      } else if (req.method === 'GET' && sessionPath) {
        answer = publicSession(sessionOf(decodeURIComponent(sessionPath[1] as string)));
      } else if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const refund = createRefund(params);
        const session = [...sessions.values()].find(
          (s) => s.payment_intent === refund.payment_intent,
        ) as EmulatedSession;
        answer = refund;
        after.push(() => deliver('charge.refunded', signedEvent('charge.refunded', refundedCharge(session, refund))));
      } else {
        throw new ApiError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
        });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      status = err.status;
      answer = { error: err.body };
    }
    if (replayKey) idempotent.set(replayKey, { status, body: answer });
    sendJson(res, status, answer);
    for (const job of after) {
      const p = job().finally(() => pending.delete(p));
      pending.add(p);
      await p;
    }
  }

  async function page(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const s = sessions.get(id);
    if (!s) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such session');
      return;
    }
    if (req.method === 'POST') {
      await readBody(req);
      if (s.status === 'open') await pay(id);
      res.writeHead(303, { location: s.success_url ?? base }).end();
      return;
    }
    const amount = `$${(s.amount_total / 100).toFixed(2)}`;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>Pay ${amount}</title><main><h1>Pay ${amount}</h1>` +
          `<p>${s.line_items.map((l) => l.name).join(', ')}</p>` +
          `<form method="post"><button type="submit">Pay ${amount}</button></form>` +
          `<a href="${s.cancel_url ?? base}">Cancel</a></main>`,
      );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const payPage = /^\/pay\/([^/]+)$/.exec(url.pathname);
    const work = payPage ? page(req, res, decodeURIComponent(payPage[1] as string)) : api(req, res, url);
    work.catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: String(err) } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const emulator: StripeEmulator = {
    url: base,
    secretKey: EMULATOR_SECRET_KEY,
    webhookSecret: EMULATOR_WEBHOOK_SECRET,
    webhookUrl: opts.webhookUrl,
    sessions,
    refunds,
    requests,
    deliveries,
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) faults.push(status);
    },
    pay,
    settled: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    signedEvent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return emulator;
}
