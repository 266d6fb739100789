/**
 * Reading a row of the Orders tab back as an order (src/services/mirror/sheets/layout.ts has
 * the columns). Rows are read as displayed (FORMATTED_VALUE), so a hand-typed `12.5`,
 * ` PAID ` or `TRUE` reads as meant. The parse is forgiving where a value can be inferred
 * (case, spaces, money written `12.5`, a missing fee or shipping status) and strict where it
 * cannot (no id, unknown status): such a row is reported, never guessed at and never rewritten.
 */

import { z } from 'zod';
import { formatItems, parseItems } from '../../../domain/items.js';
import { parseMoney } from '../../../domain/money.js';
import { OrderLine, OrderPayment, OrderRecord, PickupStatus } from '../../../domain/order.js';
import type { RowCells } from './layout.js';

export type RowParse = { ok: true; order: OrderRecord } | { ok: false; reason: string };

export function isBlankRow(values: readonly unknown[]): boolean {
  return values.every((v) => v === null || v === undefined || String(v).trim() === '');
}

class Unreadable extends Error {}

function fail(reason: string): never {
  throw new Unreadable(reason);
}

const STATUS_WORDS: Record<string, OrderRecord['status']> = {
  pending: 'pending',
  paid: 'paid',
  void: 'void',
  voided: 'void',
  refunded: 'void',
  cancelled: 'cancelled',
  canceled: 'cancelled',
};

function word(text: string): string {
  return text.trim().toLowerCase();
}

function flag(text: string, key: string): boolean | null {
  const w = word(text);
  if (w === '') return null;
  if (['true', 'yes', 'y', '1'].includes(w)) return true;
  if (['false', 'no', 'n', '0'].includes(w)) return false;
  return fail(`${key} "${text.slice(0, 40)}" is not TRUE or FALSE`);
}

const isoDate = z.iso.datetime({ offset: true });

/** Our own timestamps are kept byte for byte; a hand-typed date is normalised to UTC ISO. */
function timestamp(text: string, key: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  if (isoDate.safeParse(t).success) return t;
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return fail(`${key} "${t.slice(0, 40)}" is not a date`);
  return new Date(ms).toISOString();
}

function money(text: string, key: string): number | null {
  if (text.trim() === '') return null;
  const cents = parseMoney(text);
  if (cents === null || cents < 0) return fail(`${key} "${text.slice(0, 40)}" is not an amount`);
  return cents;
}

const Lines = z.array(OrderLine).min(1);

function payment(text: string): OrderPayment | null {
  if (text.trim() === '') return null;
  try {
    const parsed = OrderPayment.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  return fail(`payment "${text.slice(0, 40)}" is not a checkout record`);
}

/** The lines: the JSON copy while column K still says the same, else K as a person wrote it. */
function lines(cells: RowCells): OrderLine[] {
  const text = cells.items.trim();
  if (cells.itemsJson.trim()) {
    try {
      const parsed = Lines.safeParse(JSON.parse(cells.itemsJson));
      if (parsed.success && (text === '' || formatItems(parsed.data) === text)) return parsed.data;
    } catch {
      // not JSON: fall back to the items text
    }
  }
  if (text === '') return fail('items is empty');
  const result = parseItems(text);
  if (!result.ok) {
    const first = result.errors[0];
    return fail(`items line ${first?.line}: ${first?.message}`);
  }
  return result.lines.map((l) => {
    if (l.amountCents === null) return fail(`items line "Photo #${l.photoNumber}" has no amount`);
    return {
      photoNumber: l.photoNumber,
      size: l.size,
      quantity: l.quantity,
      unitCents: Math.round(l.amountCents / l.quantity),
      lineCents: l.amountCents,
    };
  });
}

/** A pickup order's status as typed (any case), `waiting` when empty; none for orders that ship. */
function pickupStatus(cells: RowCells, fulfillment: string): PickupStatus | null {
  if (fulfillment !== 'pickup') return null;
  const w = word(cells.pickupStatus);
  if (w === '') return 'waiting';
  const parsed = PickupStatus.safeParse(w);
  return parsed.success ? parsed.data : fail(`pickupStatus "${cells.pickupStatus.trim().slice(0, 40)}" is not known`);
}

function build(cells: RowCells): OrderRecord {
  const id = cells.id.trim();
  if (!id) fail('id is empty');
  const orderNumber = cells.orderNumber.trim().toUpperCase();
  if (!orderNumber) fail('orderNumber is empty');
  const statusWord = word(cells.status);
  if (!statusWord) fail('status is empty');
  const status = STATUS_WORDS[statusWord] ?? fail(`status "${cells.status.trim().slice(0, 40)}" is not known`);
  const createdAt = timestamp(cells.createdAt, 'createdAt') ?? fail('createdAt is empty');
  const items = lines(cells);
  const lineSum = items.reduce((n, l) => n + l.lineCents, 0);
  const subtotalCents = money(cells.subtotal, 'subtotal') ?? lineSum;
  const totalText = money(cells.total, 'total');
  const shippingFeeCents =
    money(cells.shippingFee, 'shippingFee') ?? (totalText !== null ? totalText - subtotalCents : 0);
  const typed = word(cells.fulfillmentType);
  const fulfillment = typed === '' ? (cells.shippingAddress.trim() ? 'ship' : 'pickup') : typed;
  const totalCents = totalText ?? subtotalCents + shippingFeeCents;
  const held = flag(cells.held, 'held') ?? false;
  const candidate = {
    id,
    orderNumber,
    eventSlug: cells.eventSlug.trim(),
    createdAt,
    updatedAt: timestamp(cells.updatedAt, 'updatedAt') ?? createdAt,
    customerName: cells.customerName,
    customerEmail: cells.customerEmail,
    customerPhone: cells.customerPhone,
    fulfillmentType: fulfillment,
    shippingAddress: cells.shippingAddress,
    city: cells.city,
    state: cells.state,
    zipCode: cells.zipCode,
    items,
    subtotalCents,
    shippingFeeCents,
    totalCents,
    // Absent in a row written before the column: what the figures imply (exact under the pricing rules).
    discountCents: money(cells.discount, 'discount') ?? Math.max(0, subtotalCents + shippingFeeCents - totalCents),
    couponCode: cells.couponCode.trim().toUpperCase() || null,
    payment: payment(cells.payment),
    status,
    shippingStatus: word(cells.shippingStatus) || 'ship',
    trackingNumber: cells.trackingNumber,
    feedback: cells.feedback,
    held,
    holdExpiresAt: timestamp(cells.holdExpiresAt, 'holdExpiresAt'),
    addressVerified: flag(cells.addressVerified, 'addressVerified'),
    channel: word(cells.channel) || 'web',
    // A sheet row carries neither: the record keeps them (the mirror compares rows, not these).
    version: 1,
    history: [],
    pickupStatus: pickupStatus(cells, fulfillment),
    // Which lines are printed is the record's (the sheet shows only how many).
    printed: [],
  };
  const parsed = OrderRecord.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(`${issue?.path.join('.') || 'row'}: ${issue?.message}`);
  }
  return parsed.data;
}

/** Reads one row's cells; never throws. */
export function parseRow(cells: RowCells): RowParse {
  try {
    return { ok: true, order: build(cells) };
  } catch (err) {
    if (err instanceof Unreadable) return { ok: false, reason: err.message };
    return { ok: false, reason: (err as Error).message };
  }
}

/** `AX25-0012` → { prefix, sequence }, from any row that carries an order number, readable or not. */
export function orderNumberParts(text: string): { prefix: string; sequence: number } | null {
  const m = /^\s*([A-Za-z0-9]{1,8})-(\d{1,9})\s*$/.exec(text);
  return m ? { prefix: (m[1] as string).toUpperCase(), sequence: Number(m[2]) } : null;
}

/** A hand-typed status ("Paid", "refunded", ...) as a status, or null when it names none. */
export function readStatus(text: string): OrderRecord['status'] | null {
  return STATUS_WORDS[word(text)] ?? null;
}

/** A row's lines (column K as a person wrote it, or its JSON copy while K is unchanged). */
export function readLines(cells: RowCells): { ok: true; lines: OrderLine[] } | { ok: false; reason: string } {
  try {
    return { ok: true, lines: lines(cells) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
