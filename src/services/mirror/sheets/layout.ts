/**
 * The Orders tab: which column holds what, and how a row becomes an OrderRecord and back.
 *
 * Columns A–U are the operators' (docs/google-sheets.md); V–Z hold the rest of the record so
 * a row round-trips exactly; AA–AB show the booth's fulfilment (docs/contract.md,
 * "Fulfilment"): a pickup order's `pickupStatus` and how many of its lines to print are
 * printed (`printed`, e.g. `2/3`; digital downloads are not counted); AC–AE are selling's (docs/contract.md, "Selling"): the coupon
 * used, the discount (money text, as L–N) and the online checkout (JSON, empty when paid at
 * the booth). New columns only ever go after the last one: A–U never move.
 * Columns are found by their header text (case, spaces and punctuation ignored), so an
 * operator may move columns around or add their own; missing ones are added at the end of
 * the header row.
 *
 * Rows are written as text only (`valueInputOption=RAW`) and read as displayed
 * (FORMATTED_VALUE), so a hand-typed `12.5`, ` PAID ` or `TRUE` reads as meant. The
 * parse is forgiving where a value can be inferred (case, spaces, money written `12.5`,
 * a missing fee or shipping status) and strict where it cannot (no id, unknown status):
 * such a row is reported, never guessed at and never rewritten.
 */

import { z } from 'zod';
import { formatItems, parseItems } from '../../../domain/items.js';
import { parseMoney } from '../../../domain/money.js';
import { printProgress } from '../../../domain/offers.js';
import { OrderLine, OrderPayment, OrderRecord, PickupStatus } from '../../../domain/order.js';
import { orderAmountsText, orderContact } from '../../../domain/order-text.js';

export const ORDER_COLUMNS = [
  // A–U, the operators' columns (docs/google-sheets.md)
  'orderNumber',
  'createdAt',
  'customerName',
  'customerEmail',
  'customerPhone',
  'fulfillmentType',
  'shippingAddress',
  'city',
  'state',
  'zipCode',
  'items',
  'subtotal',
  'shippingFee',
  'total',
  'status',
  'shippingStatus',
  'feedback',
  'id',
  'eventSlug',
  'trackingNumber',
  'updatedAt',
  // the rest of the record, V–Z
  'held',
  'holdExpiresAt',
  'addressVerified',
  'channel',
  'itemsJson',
  // fulfilment, AA–AB
  'pickupStatus',
  'printed',
  // selling, AC–AE
  'couponCode',
  'discount',
  'payment',
] as const;
export type ColumnKey = (typeof ORDER_COLUMNS)[number];
export type RowCells = Record<ColumnKey, string>;

/**
 * The columns a hand edit reaches the record from (C–K, O, P, Q, T), and how: through the
 * API's rules for that part of the order (hand-edit.ts). Every other column is the record's:
 * a hand edit there is not read back (docs/mirror.md).
 */
export const HAND_EDITS = {
  customerName: 'field',
  customerEmail: 'field',
  customerPhone: 'field',
  fulfillmentType: 'field',
  shippingAddress: 'address',
  city: 'address',
  state: 'address',
  zipCode: 'address',
  items: 'lines',
  status: 'status',
  shippingStatus: 'shipping',
  feedback: 'feedback',
  trackingNumber: 'shipping',
} as const satisfies Partial<Record<ColumnKey, 'field' | 'address' | 'lines' | 'status' | 'shipping' | 'feedback'>>;
export type EditableColumn = keyof typeof HAND_EDITS;
export const EDITABLE_COLUMNS = Object.keys(HAND_EDITS) as EditableColumn[];
type FieldColumn = {
  [K in EditableColumn]: (typeof HAND_EDITS)[K] extends 'field' | 'address' ? K : never;
}[EditableColumn];
/** The editable columns that are plain order fields (an address one clears the address check). */
export const FIELD_COLUMNS = EDITABLE_COLUMNS.filter(
  (k): k is FieldColumn => HAND_EDITS[k] === 'field' || HAND_EDITS[k] === 'address',
);
export const ADDRESS_COLUMNS = EDITABLE_COLUMNS.filter((k) => HAND_EDITS[k] === 'address');

/** Header text → comparable key: "Order Number", "order_number", "orderNumber" are one. */
export function headerKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Where each column is (0-based), after reading or writing the header row. */
export class ColumnMap {
  readonly index: Record<ColumnKey, number>;
  /** First and last column the adapter owns: the span it reads and appends. */
  readonly first: number;
  readonly last: number;

  constructor(index: Record<ColumnKey, number>) {
    this.index = index;
    const all = Object.values(index);
    this.first = Math.min(...all);
    this.last = Math.max(...all);
  }

  /** The default layout, A–Z. */
  static standard(): ColumnMap {
    return new ColumnMap(Object.fromEntries(ORDER_COLUMNS.map((k, i) => [k, i])) as Record<ColumnKey, number>);
  }

  /**
   * Maps an existing header row. Columns it lacks are placed after its last non-empty
   * cell; `added` lists them so the caller can write their header cells.
   */
  static fromHeader(header: readonly string[]): { map: ColumnMap; added: { key: ColumnKey; index: number }[] } {
    const found = new Map<string, number>();
    header.forEach((text, i) => {
      const k = headerKey(String(text));
      if (k && !found.has(k)) found.set(k, i);
    });
    let next = header.reduce((last, text, i) => (String(text).trim() ? i : last), -1) + 1;
    const index = {} as Record<ColumnKey, number>;
    const added: { key: ColumnKey; index: number }[] = [];
    for (const key of ORDER_COLUMNS) {
      const at = found.get(headerKey(key));
      if (at !== undefined) index[key] = at;
      else {
        index[key] = next;
        added.push({ key, index: next });
        next += 1;
      }
    }
    return { map: new ColumnMap(index), added };
  }

  /** A row's cells, from the span's first column to its last ('' where not ours). */
  toArray(cells: RowCells): string[] {
    const out = new Array<string>(this.last - this.first + 1).fill('');
    for (const key of ORDER_COLUMNS) out[this.index[key] - this.first] = cells[key];
    return out;
  }

  /** Cells of a row read from the span's first column (missing trailing cells are ''). */
  fromArray(values: readonly unknown[]): RowCells {
    const cells = {} as RowCells;
    for (const key of ORDER_COLUMNS) {
      const v = values[this.index[key] - this.first];
      cells[key] = v === undefined || v === null ? '' : String(v);
    }
    return cells;
  }

  /** Runs of adjacent columns among `keys`: each run is one range to write. */
  runs(keys: readonly ColumnKey[]): { from: number; to: number; keys: ColumnKey[] }[] {
    const sorted = [...keys].sort((a, b) => this.index[a] - this.index[b]);
    const out: { from: number; to: number; keys: ColumnKey[] }[] = [];
    for (const key of sorted) {
      const i = this.index[key];
      const run = out[out.length - 1];
      if (run && run.to === i - 1) {
        run.to = i;
        run.keys.push(key);
      } else out.push({ from: i, to: i, keys: [key] });
    }
    return out;
  }
}

const bool = (v: boolean) => (v ? 'TRUE' : 'FALSE');

/** `2/3`: lines printed of the lines there are to print (digital downloads are never printed); empty for none. */
function printedCell(o: OrderRecord): string {
  const { printed, toPrint } = printProgress(o);
  return toPrint === 0 ? '' : `${printed}/${toPrint}`;
}

/** The cells of an order as written. Money is "$12.50" text; items both as text and JSON. */
export function toCells(o: OrderRecord): RowCells {
  return {
    orderNumber: o.orderNumber,
    createdAt: o.createdAt,
    ...orderContact(o),
    ...orderAmountsText(o),
    status: o.status,
    shippingStatus: o.shippingStatus,
    feedback: o.feedback,
    id: o.id,
    eventSlug: o.eventSlug,
    trackingNumber: o.trackingNumber,
    updatedAt: o.updatedAt,
    held: bool(o.held),
    holdExpiresAt: o.holdExpiresAt ?? '',
    addressVerified: o.addressVerified === null ? '' : bool(o.addressVerified),
    channel: o.channel,
    itemsJson: JSON.stringify(o.items),
    pickupStatus: o.pickupStatus ?? '',
    printed: printedCell(o),
    couponCode: o.couponCode ?? '',
    payment: o.payment === null ? '' : JSON.stringify(o.payment),
  };
}

/** Keys whose cells differ between two versions of an order: what an update must write. */
export function changedKeys(before: OrderRecord, after: OrderRecord): ColumnKey[] {
  const a = toCells(before);
  const b = toCells(after);
  return ORDER_COLUMNS.filter((k) => a[k] !== b[k]);
}

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
  const fulfillment = word(cells.fulfillmentType);
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
    fulfillmentType: fulfillment === '' ? (cells.shippingAddress.trim() ? 'ship' : 'pickup') : fulfillment,
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
    pickupStatus: pickupStatus(
      cells,
      fulfillment === '' ? (cells.shippingAddress.trim() ? 'ship' : 'pickup') : fulfillment,
    ),
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
