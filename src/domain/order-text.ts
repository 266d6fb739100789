/**
 * The parts of an order every outside view shows alike (the API's order views, the
 * customer's page, the sheet's row): its lines as text and its money as "$12.50" text, and the
 * customer's contact and address as typed. Declared once so the views cannot drift apart.
 */
import { formatItems } from './items.js';
import { formatCents } from './money.js';
import type { OrderRecord } from './order.js';

export function orderAmountsText(o: OrderRecord) {
  return {
    items: formatItems(o.items),
    subtotal: formatCents(o.subtotalCents),
    discount: formatCents(o.discountCents),
    shippingFee: formatCents(o.shippingFeeCents),
    total: formatCents(o.totalCents),
  };
}

export function orderContact(o: OrderRecord) {
  return {
    customerName: o.customerName,
    customerEmail: o.customerEmail,
    customerPhone: o.customerPhone,
    fulfillmentType: o.fulfillmentType,
    shippingAddress: o.shippingAddress,
    city: o.city,
    state: o.state,
    zipCode: o.zipCode,
  };
}
