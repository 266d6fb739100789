/**
 * The order record's fields, declared once: per field its zod type, its column in table
 * `orders` and how it is held and written there, and its column(s) in the spreadsheet mirror's
 * Orders tab with how a hand edit there reaches the record. From this table come the record's
 * schema (`OrderRecord`, every row read is parsed with it), the fields an admin may edit, the
 * store's column lists and row mapping (src/services/store/sql/order-rows.ts) and the sheet's
 * columns (src/services/mirror/sheets/layout.ts, row-cells.ts).
 *
 * A new field: add it here (and a migration per engine: test/domain/order-fields.test.ts
 * checks the table against the migrated schema on both engines), then make the change that
 * sets it a function in src/domain/order-changes.ts that appends its history entry.
 * Sheet columns only ever go after the last one (docs/mirror.md): A–U never move.
 */
import { z } from 'zod';
import {
  cents,
  FulfillmentType,
  HistoryEntry,
  isoTimestamp,
  OrderChannel,
  OrderLine,
  OrderPayment,
  OrderStatus,
  PickupStatus,
  PrintedMark,
  ShippingStatus,
} from './order-values.js';

/**
 * How a field is held in its column of table `orders`: the migrations give each kind one type
 * per engine (SQLite `TEXT`/`INTEGER`, PostgreSQL `text`, `bigint`, `boolean`, `jsonb`,
 * `timestamptz`).
 */
export type Storage = 'text' | 'integer' | 'boolean' | 'json' | 'timestamp';

/**
 * Which writes set the column: `create` only the one that makes the order; `change` every
 * change (the UPDATE that bumps the version); `lines` a hand edit of the sheet's lines (column
 * K), the one change that rewrites the lines and the amounts they make.
 */
export type Written = 'create' | 'change' | 'lines';

/**
 * How a hand edit of a sheet column reaches the record, through the API's rules for that part
 * of the order (src/services/mirror/hand-edit.ts): `field` and `address` like
 * `PUT /api/orders/{id}` (an address edit clears the address check), `lines` as new lines,
 * `status` like update-status, `shipping` like update-shipping, `feedback` as the feedback text.
 * A column without one is the record's: a hand edit there is not read back (docs/mirror.md).
 */
export type HandEdit = 'field' | 'address' | 'lines' | 'status' | 'shipping' | 'feedback';

/**
 * How a cell shows its field: `text` as it is, `orEmpty` empty for null, `money` "$12.50",
 * `flag` TRUE/FALSE (empty for null), `lines` the items text, `json` JSON (empty for null),
 * `progress` the lines printed of the lines to print (`2/3`; empty when none are to print).
 */
export type CellText = 'text' | 'orEmpty' | 'money' | 'flag' | 'lines' | 'json' | 'progress';

/** A column of the Orders tab: its letter in the standard layout, header and text. */
export type SheetColumn = {
  readonly col: string;
  readonly header: string;
  readonly text: CellText;
  readonly edit?: HandEdit;
};

type FieldSpec = {
  readonly schema: z.ZodType;
  readonly column: string;
  readonly storage: Storage;
  readonly written: Written;
  /** One of the fields an admin may edit before fulfilment (docs/contract.md, "Status and shipping"). */
  readonly adminEdit?: true;
  readonly sheet: readonly SheetColumn[];
};

const text = z.string();

/** In the record's order: the admin-editable fields first. */
export const ORDER_FIELDS = {
  customerName: {
    schema: text,
    column: 'customer_name',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'C', header: 'customerName', text: 'text', edit: 'field' }],
  },
  customerEmail: {
    schema: text,
    column: 'customer_email',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'D', header: 'customerEmail', text: 'text', edit: 'field' }],
  },
  customerPhone: {
    schema: text,
    column: 'customer_phone',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'E', header: 'customerPhone', text: 'text', edit: 'field' }],
  },
  fulfillmentType: {
    schema: FulfillmentType,
    column: 'fulfillment_type',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'F', header: 'fulfillmentType', text: 'text', edit: 'field' }],
  },
  shippingAddress: {
    schema: text,
    column: 'shipping_address',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'G', header: 'shippingAddress', text: 'text', edit: 'address' }],
  },
  city: {
    schema: text,
    column: 'city',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'H', header: 'city', text: 'text', edit: 'address' }],
  },
  state: {
    schema: text,
    column: 'state',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'I', header: 'state', text: 'text', edit: 'address' }],
  },
  zipCode: {
    schema: text,
    column: 'zip_code',
    storage: 'text',
    written: 'change',
    adminEdit: true,
    sheet: [{ col: 'J', header: 'zipCode', text: 'text', edit: 'address' }],
  },
  /** Opaque unique id (a UUID). */
  id: {
    schema: z.string().min(1),
    column: 'id',
    storage: 'text',
    written: 'create',
    sheet: [{ col: 'R', header: 'id', text: 'text' }],
  },
  /** `<eventPrefix>-<sequence>`, sequence zero-padded to 4 digits: `AX25-0001`. */
  orderNumber: {
    schema: z.string().regex(/^[A-Z0-9]{1,8}-\d{4,}$/),
    column: 'order_number',
    storage: 'text',
    written: 'create',
    sheet: [{ col: 'A', header: 'orderNumber', text: 'text' }],
  },
  eventSlug: {
    schema: z.string().min(1),
    column: 'event_slug',
    storage: 'text',
    written: 'create',
    sheet: [{ col: 'S', header: 'eventSlug', text: 'text' }],
  },
  createdAt: {
    schema: isoTimestamp,
    column: 'created_at',
    storage: 'timestamp',
    written: 'create',
    sheet: [{ col: 'B', header: 'createdAt', text: 'text' }],
  },
  updatedAt: {
    schema: isoTimestamp,
    column: 'updated_at',
    storage: 'timestamp',
    written: 'change',
    sheet: [{ col: 'U', header: 'updatedAt', text: 'text' }],
  },
  /** The lines: as text in K (what operators read and edit), and as JSON in Z so a row round-trips. */
  items: {
    schema: z.array(OrderLine).min(1),
    column: 'items',
    storage: 'json',
    written: 'lines',
    sheet: [
      { col: 'K', header: 'items', text: 'lines', edit: 'lines' },
      { col: 'Z', header: 'itemsJson', text: 'json' },
    ],
  },
  subtotalCents: {
    schema: cents,
    column: 'subtotal_cents',
    storage: 'integer',
    written: 'lines',
    sheet: [{ col: 'L', header: 'subtotal', text: 'money' }],
  },
  shippingFeeCents: {
    schema: cents,
    column: 'shipping_fee_cents',
    storage: 'integer',
    written: 'create',
    sheet: [{ col: 'M', header: 'shippingFee', text: 'money' }],
  },
  /** Packages plus the early bird or the coupon: total = subtotal − discount + shipping. */
  discountCents: {
    schema: cents,
    column: 'discount_cents',
    storage: 'integer',
    written: 'create',
    sheet: [{ col: 'AD', header: 'discount', text: 'money' }],
  },
  /** The coupon the order used (its use is counted while the order is not void or cancelled); null: none. */
  couponCode: {
    schema: z.string().min(1).nullable(),
    column: 'coupon_code',
    storage: 'text',
    written: 'create',
    sheet: [{ col: 'AC', header: 'couponCode', text: 'orEmpty' }],
  },
  totalCents: {
    schema: cents,
    column: 'total_cents',
    storage: 'integer',
    written: 'lines',
    sheet: [{ col: 'N', header: 'total', text: 'money' }],
  },
  status: {
    schema: OrderStatus,
    column: 'status',
    storage: 'text',
    written: 'change',
    sheet: [{ col: 'O', header: 'status', text: 'text', edit: 'status' }],
  },
  shippingStatus: {
    schema: ShippingStatus,
    column: 'shipping_status',
    storage: 'text',
    written: 'change',
    sheet: [{ col: 'P', header: 'shippingStatus', text: 'text', edit: 'shipping' }],
  },
  /** Empty until shipped with a tracking number. */
  trackingNumber: {
    schema: text,
    column: 'tracking_number',
    storage: 'text',
    written: 'change',
    sheet: [{ col: 'T', header: 'trackingNumber', text: 'text', edit: 'shipping' }],
  },
  /** Every feedback entry, oldest first, each `[<ISO time>] <text>`, separated by a blank line. */
  feedback: {
    schema: text,
    column: 'feedback',
    storage: 'text',
    written: 'change',
    sheet: [{ col: 'Q', header: 'feedback', text: 'text', edit: 'feedback' }],
  },
  /** High-value orders wait for email confirmation (docs/contract.md, "Notifications"): held orders are in no admin list. */
  held: {
    schema: z.boolean(),
    column: 'held',
    storage: 'boolean',
    written: 'change',
    sheet: [{ col: 'V', header: 'held', text: 'flag' }],
  },
  /** When an unconfirmed hold is cancelled; null when not held. */
  holdExpiresAt: {
    schema: isoTimestamp.nullable(),
    column: 'hold_expires_at',
    storage: 'timestamp',
    written: 'change',
    sheet: [{ col: 'W', header: 'holdExpiresAt', text: 'orEmpty' }],
  },
  /** Result of the address check: true/false, or null when not checked (pickup, verifier off). */
  addressVerified: {
    schema: z.boolean().nullable(),
    column: 'address_verified',
    storage: 'boolean',
    written: 'change',
    sheet: [{ col: 'X', header: 'addressVerified', text: 'flag' }],
  },
  channel: {
    schema: OrderChannel,
    column: 'channel',
    storage: 'text',
    written: 'create',
    sheet: [{ col: 'Y', header: 'channel', text: 'text' }],
  },
  /** Bumped by every write: what a reader compares to know whether its copy is current. */
  version: {
    schema: z.number().int().min(1),
    column: 'version',
    storage: 'integer',
    written: 'change',
    sheet: [],
  },
  /** Every change, oldest first (docs/contract.md, "Fulfilment"); the sheet shows none of it. */
  history: {
    schema: z.array(HistoryEntry),
    column: 'history',
    storage: 'json',
    written: 'change',
    sheet: [],
  },
  /** Pickup orders: waiting → ready → collected; null for orders that ship. */
  pickupStatus: {
    schema: PickupStatus.nullable(),
    column: 'pickup_status',
    storage: 'text',
    written: 'change',
    sheet: [{ col: 'AA', header: 'pickupStatus', text: 'orEmpty' }],
  },
  /**
   * The lines marked printed, in the order they were marked (docs/contract.md, "Fulfilment");
   * the sheet shows only how many.
   */
  printed: {
    schema: z.array(PrintedMark),
    column: 'printed',
    storage: 'json',
    written: 'change',
    sheet: [{ col: 'AB', header: 'printed', text: 'progress' }],
  },
  /** The online checkout, once opened (PAYMENT_PROVIDER=stripe). */
  payment: {
    schema: OrderPayment.nullable(),
    column: 'payment',
    storage: 'json',
    written: 'change',
    sheet: [{ col: 'AE', header: 'payment', text: 'json' }],
  },
} as const satisfies Record<string, FieldSpec>;

type Fields = typeof ORDER_FIELDS;
export type OrderField = keyof Fields;

/** The fields, in the record's order. */
export const ORDER_FIELD_NAMES = Object.keys(ORDER_FIELDS) as OrderField[];

const shape = Object.fromEntries(ORDER_FIELD_NAMES.map((k) => [k, ORDER_FIELDS[k].schema])) as {
  [K in OrderField]: Fields[K]['schema'];
};

export const OrderRecord = z.object(shape);
export type OrderRecord = z.infer<typeof OrderRecord>;

type AdminEditable = { [K in OrderField]: Fields[K] extends { adminEdit: true } ? K : never }[OrderField];

/** The fields an admin may edit before fulfilment (docs/contract.md, "Status and shipping"). */
export const EDITABLE_FIELDS = ORDER_FIELD_NAMES.filter((k): k is AdminEditable => 'adminEdit' in ORDER_FIELDS[k]);
export const EditableFields = OrderRecord.pick(
  Object.fromEntries(EDITABLE_FIELDS.map((k) => [k, true])) as { [K in AdminEditable]: true },
);
export type EditableFields = z.infer<typeof EditableFields>;

/** A sheet column, with the field it shows. */
type SheetColumnOf<K extends OrderField> = Fields[K]['sheet'][number];

/** The Orders tab's column names (their header text). */
export type ColumnKey = { [K in OrderField]: SheetColumnOf<K>['header'] }[OrderField];

/** The columns a hand edit reaches the record from. */
export type EditableColumn = {
  [K in OrderField]: Extract<SheetColumnOf<K>, { edit: HandEdit }>['header'];
}[OrderField];

/** The editable columns that are plain order fields (`field` or `address`; an address one clears the address check). */
export type FieldColumn = {
  [K in OrderField]: Extract<SheetColumnOf<K>, { edit: 'field' | 'address' }>['header'];
}[OrderField];

/** Every sheet column with the field it shows, in column order (A, B, ..., Z, AA, ...). */
export const SHEET_COLUMNS: readonly (SheetColumn & { header: ColumnKey; field: OrderField })[] =
  ORDER_FIELD_NAMES.flatMap((field) =>
    ORDER_FIELDS[field].sheet.map((c: SheetColumn) => ({ ...c, header: c.header as ColumnKey, field })),
  ).sort((a, b) => a.col.length - b.col.length || (a.col < b.col ? -1 : a.col > b.col ? 1 : 0));
