/**
 * The order store port: everything the ordering, admin, notification and push features
 * need from persistence. One adapter per backend implements it (sqlite/, postgres/,
 * sheets/); `cached-store.ts` wraps any of them with the 30-second read cache; the
 * conformance suite in test/services/store/ runs against all three.
 *
 * Rules every adapter keeps:
 * - Every row read is parsed with the zod schemas of src/domain (`OrderRecord` etc.).
 * - Money is integer cents.
 * - `createOrder` resolves only once the order (and the mail jobs given with it) is
 *   durable, with an order number unique and consecutive per prefix.
 * - Status, shipping and edit rules (src/domain/transitions.ts) are checked atomically
 *   with the write; violations throw the AppErrors of SPEC §1 (INVALID_TRANSITION, ...).
 * - An unknown id or order number throws AppError ORDER_NOT_FOUND.
 * - A backend that can't be reached throws AppError STORE_UNAVAILABLE (503).
 * - Orders are looked up by id or by order number (case-insensitive).
 */
import { z } from 'zod';
import { EarlyBird, Package } from '../../domain/offers.js';
import type { EditableFields, NewOrder, OrderRecord, OrderStatus, SalesSummaryCents } from '../../domain/order.js';

export type StoreKind = 'sqlite' | 'sheets' | 'postgres';

// ---------------------------------------------------------------- event settings

/** Admin overrides of an event's event.json defaults (SPEC §3). Absent keys: use the default. */
export const EventSettings = z.object({
  eventSlug: z.string().min(1),
  isArchived: z.boolean().optional(),
  orderingEnabled: z.boolean().optional(),
  /** ISO 8601 UTC; null clears a default deadline. */
  deadline: z.iso.datetime({ offset: true }).nullable().optional(),
  /** size → price in cents. Replaces the whole default price list when present. */
  prices: z.record(z.string(), z.number().int().min(0)).optional(),
  shippingFeeCents: z.number().int().min(0).optional(),
  /** Replaces the whole default package list when present; [] removes every package. */
  packages: z.array(Package).optional(),
  /** null removes a default early bird. */
  earlyBird: EarlyBird.nullable().optional(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type EventSettings = z.infer<typeof EventSettings>;
export type EventSettingsPatch = Omit<Partial<EventSettings>, 'eventSlug' | 'updatedAt'>;

// ---------------------------------------------------------------- push subscriptions

/** admin: every order event; order: that order's status and shipping changes (SPEC §8). */
export const PushSubscriptionRecord = z.object({
  endpoint: z.url(),
  p256dh: z.string().min(1),
  auth: z.string().min(1),
  scope: z.enum(['admin', 'order']),
  /** The order's id for scope `order`; null for `admin`. */
  orderId: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PushSubscriptionRecord = z.infer<typeof PushSubscriptionRecord>;

// ---------------------------------------------------------------- idempotency

export const IdempotencyRecord = z.object({
  key: z.string().min(1),
  /** Hash of the route and the request body: same key + other body is a conflict. */
  fingerprint: z.string().min(1),
  state: z.enum(['pending', 'done']),
  statusCode: z.number().int().nullable(),
  /** The first response's JSON body, replayed for a repeat. */
  responseBody: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type IdempotencyRecord = z.infer<typeof IdempotencyRecord>;

// ---------------------------------------------------------------- mail outbox

export const MailKind = z.enum(['receipt', 'shipped', 'verification', 'operator']);
export type MailKind = z.infer<typeof MailKind>;

/**
 * A message waiting to be sent. The payload says what to send (e.g. `{ orderId }`);
 * the notifier renders it at send time. Never dropped: it stays queued until sent.
 */
export const MailJob = z.object({
  id: z.string().min(1),
  kind: MailKind,
  orderId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  /** Failed attempts so far: `markMailFailed` adds one (a claim does not). */
  attempts: z.number().int().min(0),
  /** Not before this time; also the lease end while a worker holds it. */
  nextAttemptAt: z.iso.datetime({ offset: true }),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
  /** Which transport delivered it (sendgrid, smtp, file). */
  sentVia: z.string().nullable(),
});
export type MailJob = z.infer<typeof MailJob>;
export type MailJobInput = Pick<MailJob, 'kind' | 'orderId' | 'payload'>;

// ---------------------------------------------------------------- queries and patches

export type OrderListQuery = {
  /** Any of these statuses; all when absent. */
  statuses?: readonly OrderStatus[];
  eventSlug?: string;
  /** Held (unconfirmed high-value) orders are excluded unless this is true. */
  includeHeld?: boolean;
};

export type OrderPatch = {
  status?: OrderStatus;
  fields?: Partial<EditableFields> & { addressVerified?: boolean | null };
};

export type ShippingPatch = { shipped: boolean; trackingNumber?: string };

export type UpdateResult = { order: OrderRecord; changed: boolean };

export type StoreHealth = { ok: boolean; details?: Record<string, unknown> };

// ---------------------------------------------------------------- the port

export interface OrderStore {
  readonly kind: StoreKind;

  /** Connects and applies migrations; throws a ConfigError-like Error naming the variable on misconfiguration. */
  init(): Promise<void>;
  close(): Promise<void>;
  /** Reachability for /readyz, with details (e.g. unreadable spreadsheet rows). */
  health(): Promise<StoreHealth>;

  // orders
  /**
   * Assigns id, the next number for `prefix`, timestamps, `pending`/`ship`; enqueues `mail` atomically.
   * A job whose `orderId` is null gets the new order's id. A caller that needs the id first
   * (to sign a link in the mail) gives `input.id`; an id already taken is AppError INTERNAL
   * (a bug: ids are UUIDs), and nothing of that create is written, nor a number used.
   */
  createOrder(input: NewOrder, opts?: { mail?: MailJobInput[] }): Promise<OrderRecord>;
  /** By id or order number; null when unknown. */
  getOrder(ref: string): Promise<OrderRecord | null>;
  /**
   * Newest first. A long list may be read in slices, yielding to the event loop between them
   * (10,000 orders take hundreds of milliseconds to read and parse): an order changed during
   * the read is listed as it was before or after the change, once.
   */
  listOrders(query?: OrderListQuery): Promise<OrderRecord[]>;
  /**
   * Status move and/or field edits, checked with src/domain/transitions.ts.
   * Here and in setShipping/releaseHold, `mail` is enqueued only when something changed.
   */
  updateOrder(ref: string, patch: OrderPatch, opts?: { mail?: MailJobInput[] }): Promise<UpdateResult>;
  /** shipped true: paid + ship required; sets tracking. shipped false: undoes it. */
  setShipping(ref: string, patch: ShippingPatch, opts?: { mail?: MailJobInput[] }): Promise<UpdateResult>;
  /** Appends `[at] text` to the feedback (earlier feedback is kept). */
  appendFeedback(ref: string, text: string, at: Date): Promise<OrderRecord>;
  /** Confirms a held order (no-op if not held); enqueues `mail` atomically. */
  releaseHold(ref: string, opts?: { mail?: MailJobInput[] }): Promise<UpdateResult>;
  /** Held pending orders whose hold expired by `now` become `cancelled` (no longer held); returns them. */
  expireHolds(now: Date): Promise<OrderRecord[]>;
  /** SPEC §5 figures over non-held orders, optionally for one event. */
  summary(query?: { eventSlug?: string }): Promise<SalesSummaryCents>;

  // event settings
  getEventSettings(eventSlug: string): Promise<EventSettings | null>;
  listEventSettings(): Promise<EventSettings[]>;
  putEventSettings(eventSlug: string, patch: EventSettingsPatch): Promise<EventSettings>;

  // push subscriptions
  /** Upsert by (endpoint, orderId); `created` false when it was there already. */
  savePushSubscription(sub: PushSubscriptionRecord): Promise<{ created: boolean }>;
  listPushSubscriptions(query: { scope: 'admin' } | { orderId: string }): Promise<PushSubscriptionRecord[]>;
  deletePushSubscription(endpoint: string): Promise<void>;

  // idempotency
  /**
   * Reserves `key` (state pending) unless a live record exists; then returns that record.
   * Expired records are replaced.
   */
  reserveIdempotencyKey(
    rec: Pick<IdempotencyRecord, 'key' | 'fingerprint' | 'createdAt' | 'expiresAt'>,
  ): Promise<{ reserved: true } | { reserved: false; existing: IdempotencyRecord }>;
  completeIdempotencyKey(key: string, statusCode: number, responseBody: string): Promise<void>;
  /** Drops a pending reservation after a failure, so the client may retry. */
  releaseIdempotencyKey(key: string): Promise<void>;

  // mail outbox
  enqueueMail(jobs: MailJobInput[]): Promise<MailJob[]>;
  /** Jobs due by `now`, leased for `leaseMs` (their nextAttemptAt moves to now + leaseMs). */
  claimDueMail(now: Date, limit: number, leaseMs: number): Promise<MailJob[]>;
  markMailSent(id: string, via: string, at: Date): Promise<void>;
  markMailFailed(id: string, error: string, nextAttemptAt: Date): Promise<void>;
  /** Unsent jobs (for /readyz details and tests). */
  pendingMailCount(): Promise<number>;
}

export type { EditableFields, NewOrder, OrderRecord, OrderStatus, SalesSummaryCents };
