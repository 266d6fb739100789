/**
 * The order record's fields, declared once: zod type, column in `orders`, sheet column(s) and
 * how a hand edit there reaches the record, and (`ORDER_API`) how the API shows it. The record
 * schema, the store's row mapping, the sheet layout and the API views all derive from it.
 * A new field: add it here, a migration per engine (test/domain/order-fields.test.ts checks
 * both), `ORDER_API` if shown, and its change in order-changes.ts. Sheet columns only ever go
 * after the last one (docs/mirror.md).
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
 * How a field is held (in `orders`, and in each record's table: src/services/store/sql/record-table.ts):
 * the migrations give each kind one type per engine. `real`: a number with a fraction (no order field is one).
 */
export type Storage = 'text' | 'integer' | 'real' | 'boolean' | 'json' | 'timestamp';

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

export type SheetColumn = {
  readonly col: string;
  readonly header: string;
  readonly text: CellText;
  readonly edit?: HandEdit;
};

const field = <const S extends z.ZodType, const C extends readonly SheetColumn[], const A extends boolean = false>(
  schema: S,
  column: string,
  storage: Storage,
  written: Written,
  sheet: C,
  adminEdit?: A,
) => ({ schema, column, storage, written, sheet, adminEdit: (adminEdit ?? false) as A });

/** A sheet column (`edit`: how a hand edit there reaches the record; none: not read back). */
const cell = <const H extends string, const E extends HandEdit | undefined = undefined>(
  col: string,
  header: H,
  text: CellText,
  edit?: E,
) =>
  ({ col, header, text, ...(edit === undefined ? {} : { edit }) }) as {
    col: string;
    header: H;
    text: CellText;
    edit: E;
  };

const text = z.string();

/** In the record's order: the admin-editable fields (docs/contract.md, "Status and shipping") first. */
export const ORDER_FIELDS = {
  customerName: field(text, 'customer_name', 'text', 'change', [cell('C', 'customerName', 'text', 'field')], true),
  customerEmail: field(text, 'customer_email', 'text', 'change', [cell('D', 'customerEmail', 'text', 'field')], true),
  customerPhone: field(text, 'customer_phone', 'text', 'change', [cell('E', 'customerPhone', 'text', 'field')], true),
  fulfillmentType: field(
    FulfillmentType,
    'fulfillment_type',
    'text',
    'change',
    [cell('F', 'fulfillmentType', 'text', 'field')],
    true,
  ),
  shippingAddress: field(
    text,
    'shipping_address',
    'text',
    'change',
    [cell('G', 'shippingAddress', 'text', 'address')],
    true,
  ),
  city: field(text, 'city', 'text', 'change', [cell('H', 'city', 'text', 'address')], true),
  state: field(text, 'state', 'text', 'change', [cell('I', 'state', 'text', 'address')], true),
  zipCode: field(text, 'zip_code', 'text', 'change', [cell('J', 'zipCode', 'text', 'address')], true),
  id: field(z.string().min(1), 'id', 'text', 'create', [cell('R', 'id', 'text')]),
  /** `<eventPrefix>-<sequence>`, sequence zero-padded to 4 digits: `AX25-0001`. */
  orderNumber: field(z.string().regex(/^[A-Z0-9]{1,8}-\d{4,}$/), 'order_number', 'text', 'create', [
    cell('A', 'orderNumber', 'text'),
  ]),
  eventSlug: field(z.string().min(1), 'event_slug', 'text', 'create', [cell('S', 'eventSlug', 'text')]),
  createdAt: field(isoTimestamp, 'created_at', 'timestamp', 'create', [cell('B', 'createdAt', 'text')]),
  updatedAt: field(isoTimestamp, 'updated_at', 'timestamp', 'change', [cell('U', 'updatedAt', 'text')]),
  /** The lines: as text in K (what operators read and edit), and as JSON in Z so a row round-trips. */
  items: field(z.array(OrderLine).min(1), 'items', 'json', 'lines', [
    cell('K', 'items', 'lines', 'lines'),
    cell('Z', 'itemsJson', 'json'),
  ]),
  subtotalCents: field(cents, 'subtotal_cents', 'integer', 'lines', [cell('L', 'subtotal', 'money')]),
  shippingFeeCents: field(cents, 'shipping_fee_cents', 'integer', 'create', [cell('M', 'shippingFee', 'money')]),
  /** Packages plus the early bird or the coupon: total = subtotal − discount + shipping. */
  discountCents: field(cents, 'discount_cents', 'integer', 'create', [cell('AD', 'discount', 'money')]),
  /** The coupon the order used (its use is counted while the order is not void or cancelled); null: none. */
  couponCode: field(z.string().min(1).nullable(), 'coupon_code', 'text', 'create', [
    cell('AC', 'couponCode', 'orEmpty'),
  ]),
  totalCents: field(cents, 'total_cents', 'integer', 'lines', [cell('N', 'total', 'money')]),
  status: field(OrderStatus, 'status', 'text', 'change', [cell('O', 'status', 'text', 'status')]),
  shippingStatus: field(ShippingStatus, 'shipping_status', 'text', 'change', [
    cell('P', 'shippingStatus', 'text', 'shipping'),
  ]),
  /** Empty until shipped with a tracking number. */
  trackingNumber: field(text, 'tracking_number', 'text', 'change', [cell('T', 'trackingNumber', 'text', 'shipping')]),
  /** Every feedback entry, oldest first, each `[<ISO time>] <text>`, separated by a blank line. */
  feedback: field(text, 'feedback', 'text', 'change', [cell('Q', 'feedback', 'text', 'feedback')]),
  /** High-value orders wait for email confirmation (docs/contract.md, "Notifications"): held orders are in no admin list. */
  held: field(z.boolean(), 'held', 'boolean', 'change', [cell('V', 'held', 'flag')]),
  /** When an unconfirmed hold is cancelled; null when not held. */
  holdExpiresAt: field(isoTimestamp.nullable(), 'hold_expires_at', 'timestamp', 'change', [
    cell('W', 'holdExpiresAt', 'orEmpty'),
  ]),
  /** Result of the address check: true/false, or null when not checked (pickup, verifier off). */
  addressVerified: field(z.boolean().nullable(), 'address_verified', 'boolean', 'change', [
    cell('X', 'addressVerified', 'flag'),
  ]),
  channel: field(OrderChannel, 'channel', 'text', 'create', [cell('Y', 'channel', 'text')]),
  /** Bumped by every write: what a reader compares to know whether its copy is current. */
  version: field(z.number().int().min(1), 'version', 'integer', 'change', []),
  /** Every change, oldest first (docs/contract.md, "Fulfilment"); the sheet shows none of it. */
  history: field(z.array(HistoryEntry), 'history', 'json', 'change', []),
  /** Pickup orders: waiting → ready → collected; null for orders that ship. */
  pickupStatus: field(PickupStatus.nullable(), 'pickup_status', 'text', 'change', [
    cell('AA', 'pickupStatus', 'orEmpty'),
  ]),
  /**
   * The lines marked printed, in the order they were marked (docs/contract.md, "Fulfilment");
   * the sheet shows only how many.
   */
  printed: field(z.array(PrintedMark), 'printed', 'json', 'change', [cell('AB', 'printed', 'progress')]),
  /** The online checkout, once opened (PAYMENT_PROVIDER=stripe). */
  payment: field(OrderPayment.nullable(), 'payment', 'json', 'change', [cell('AE', 'payment', 'json')]),
};

type Fields = typeof ORDER_FIELDS;
export type OrderField = keyof Fields;

/**
 * How a field is shown by the API's order views: `money` text ("$12.50"), `lines` text, or
 * `payUrl` (the payment page while there is something to pay); see src/domain/order-text.ts.
 */
export type ApiText = 'money' | 'lines' | 'payUrl';
type ApiOptions = { readonly as?: string; readonly text?: ApiText; readonly customer?: true | string };
export type ApiShown = ApiOptions & { readonly schema: z.ZodType };

const api = <const S extends z.ZodType, const O extends ApiOptions = Record<never, never>>(schema: S, options?: O) =>
  ({ schema, ...options }) as { schema: S } & O;

const iso = z.string().describe('ISO 8601');
export const money = z
  .string()
  .regex(/^-?\$\d+\.\d{2}$/)
  .describe('Currency text, e.g. "$12.50"');

/**
 * The fields the API's order views show, in order: `as` where the contract renames it, `text`
 * where it is shown as text, `customer` where the customer's view shows it too (true, or its
 * description there). A field not here is in no view.
 */
export const ORDER_API = {
  id: api(z.string().describe('Opaque unique id (UUID)')),
  orderNumber: api(z.string().describe('`<eventPrefix>-<sequence>`, e.g. `AX25-0001`'), { customer: true }),
  eventSlug: api(text, { customer: 'Event code' }),
  customerName: api(text),
  customerEmail: api(text),
  customerPhone: api(text),
  fulfillmentType: api(
    FulfillmentType.describe(
      '`ship` (mailed), `pickup` (collected at the booth), or `digital`: every line is a digital file, delivered by download links; nothing is shipped or collected',
    ),
    {
      customer: '`ship` (mailed), `pickup` (at the booth), or `digital` (digital files only: download links once paid)',
    },
  ),
  shippingAddress: api(z.string().describe('Street address; empty for pickup')),
  city: api(text),
  state: api(text),
  zipCode: api(text),
  items: api(z.string().describe('`Photo #<number> (<size>) x<quantity> = $<amount>` lines separated by `; `'), {
    text: 'lines',
    customer: true,
  }),
  subtotalCents: api(money.describe('The sum of the line amounts'), { as: 'subtotal', text: 'money', customer: true }),
  discountCents: api(
    money.describe('Package savings plus the early bird or coupon: total = subtotal − discount + shippingFee'),
    { as: 'discount', text: 'money', customer: true },
  ),
  couponCode: api(z.string().nullable().describe('The coupon the order used; null: none'), { customer: true }),
  shippingFeeCents: api(money, { as: 'shippingFee', text: 'money', customer: true }),
  totalCents: api(money, { as: 'total', text: 'money', customer: true }),
  payment: api(
    z
      .string()
      .nullable()
      .describe(
        'With online payment (PAYMENT_PROVIDER=stripe): the hosted payment page while the order is pending; null otherwise',
      ),
    { as: 'paymentUrl', text: 'payUrl', customer: true },
  ),
  status: api(OrderStatus, {
    customer: '`pending` (waiting for payment), `paid`, `cancelled`, or `void` (cancelled by the photographer)',
  }),
  shippingStatus: api(
    ShippingStatus.describe(
      '`ship`: to be shipped; `shipped`: marked shipped (`trackingNumber` when given); `pickup`: collected at the booth, never shipped; `digital`: digital files only, never shipped',
    ),
    {
      customer:
        '`shipped` once the prints are on their way, `ship` before; `pickup` for an order collected at the booth; `digital` for digital files only (never shipped)',
    },
  ),
  trackingNumber: api(z.string().describe('Empty until shipped with a tracking number'), { customer: true }),
  feedback: api(z.string().describe('Customer feedback, entries `[<ISO time>] <text>` separated by a blank line')),
  createdAt: api(iso, { customer: true }),
  updatedAt: api(iso, { customer: true }),
  held: api(z.boolean().describe('True while a high-value order waits for email confirmation'), {
    as: 'verificationRequired',
    customer: 'True while a high-value order waits for the customer to follow the link mailed to them',
  }),
  addressVerified: api(
    z.boolean().nullable().describe('Postal check result; null when not checked (pickup, verifier off)'),
  ),
  channel: api(OrderChannel.describe('web: public checkout; booth: entered with admin credentials')),
  pickupStatus: api(
    PickupStatus.nullable().describe(
      'Pickup orders at the booth: `waiting` (new), `ready` (packed; the customer was told), `collected`; null for orders that ship and digital orders',
    ),
    {
      customer:
        'Pickup orders: `waiting` (being prepared), `ready` (collect it at the booth), `collected`; null when it ships or is digital',
    },
  ),
} satisfies { [K in OrderField]?: ApiShown };

export const ORDER_FIELD_NAMES = Object.keys(ORDER_FIELDS) as OrderField[];

const shape = Object.fromEntries(ORDER_FIELD_NAMES.map((k) => [k, ORDER_FIELDS[k].schema])) as {
  [K in OrderField]: Fields[K]['schema'];
};

export const OrderRecord = z.object(shape);
export type OrderRecord = z.infer<typeof OrderRecord>;

type AdminEditable = { [K in OrderField]: Fields[K]['adminEdit'] extends true ? K : never }[OrderField];

/** The fields an admin may edit before fulfilment (docs/contract.md, "Status and shipping"). */
export const EDITABLE_FIELDS = ORDER_FIELD_NAMES.filter((k): k is AdminEditable => ORDER_FIELDS[k].adminEdit);
export const EditableFields = OrderRecord.pick(
  Object.fromEntries(EDITABLE_FIELDS.map((k) => [k, true])) as { [K in AdminEditable]: true },
);
export type EditableFields = z.infer<typeof EditableFields>;

type SheetColumnOf<K extends OrderField> = Fields[K]['sheet'][number];

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
