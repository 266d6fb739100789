/**
 * The order page's read-only sections: the lines and totals, the customer and delivery, the
 * customer's feedback, and the notice of prints missing for a change (with its "Mark all
 * printed and …" retry).
 */
import { Notice } from '../components/common.js';
import type { AdminOrder as Order } from '../lib/api-schema.js';
import { formatDateTime } from '../lib/format.js';
import { PrintLineRow } from './OrderFulfilment.js';
import type { MissingPrints } from './order-changes.js';
import { itemLines } from './shared.js';

export function MissingPrintsNotice({ missing, busy }: { missing: MissingPrints; busy: boolean }) {
  return (
    <Notice kind="warn" role="alert">
      <p>
        Not {missing.doing} yet: {missing.lines.length === 1 ? 'this print is' : 'these prints are'} not marked printed:
      </p>
      <ul class="plain">
        {missing.lines.map((l) => (
          <li key={l.itemId}>
            Photo #{l.photoNumber} ({l.size}) ×{l.quantity} <span class="muted small">{l.itemId}</span>
          </li>
        ))}
      </ul>
      <p class="muted small">Print them from the print queue first, or, if they are in the bag already:</p>
      <button type="button" class="btn btn-primary" disabled={busy} onClick={() => missing.retry()}>
        Mark all printed and {missing.doing}
      </button>
    </Notice>
  );
}

export function OrderLines({ order }: { order: Order }) {
  const digital = order.fulfillmentType === 'digital';
  const lines = itemLines(order.items);
  return (
    <section class="card" aria-labelledby="items-title">
      <h2 id="items-title">{digital ? 'Digital files' : 'Prints'}</h2>
      <table class="table">
        <thead>
          <tr>
            <th scope="col">Photo</th>
            <th scope="col">Size</th>
            <th scope="col" class="num">
              Qty
            </th>
            <th scope="col" class="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lines
            ? order.lines.map((l) => <PrintLineRow key={l.itemId} line={l} />)
            : lines.map((l) =>
                l.number ? (
                  <tr key={l.text}>
                    <td>#{l.number}</td>
                    <td>{l.size}</td>
                    <td class="num">{l.quantity}</td>
                    <td class="num">{l.amount}</td>
                  </tr>
                ) : (
                  <tr key={l.text}>
                    <td colSpan={4}>{l.text}</td>
                  </tr>
                ),
              )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Subtotal
            </th>
            <td class="num">{order.subtotal}</td>
          </tr>
          {order.discount !== '$0.00' && (
            <tr>
              <th scope="row" colSpan={3}>
                {order.couponCode ? `Discount (coupon ${order.couponCode})` : 'Discount (packages or early bird)'}
              </th>
              <td class="num">−{order.discount}</td>
            </tr>
          )}
          <tr>
            <th scope="row" colSpan={3}>
              Shipping
            </th>
            <td class="num">{order.shippingFee}</td>
          </tr>
          <tr class="total-row">
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td class="num">{order.total}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

/** Name, email, phone, delivery and tracking; `onEdit` (when the order may be edited) offers the edit form. */
export function CustomerCard({ order, onEdit }: { order: Order; onEdit: (() => void) | undefined }) {
  const digital = order.fulfillmentType === 'digital';
  return (
    <section class="card" aria-labelledby="customer-title">
      <h2 id="customer-title">Customer</h2>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{order.customerName}</dd>
        <dt>Email</dt>
        <dd>
          <a href={`mailto:${order.customerEmail}`} data-external>
            {order.customerEmail}
          </a>
        </dd>
        <dt>Phone</dt>
        <dd>{order.customerPhone || '—'}</dd>
        <dt>Delivery</dt>
        <dd>
          {digital ? (
            'Digital files: download links, once paid (nothing to ship or collect)'
          ) : order.fulfillmentType === 'pickup' ? (
            'Pickup at the booth'
          ) : (
            <>
              {order.shippingAddress}
              <br />
              {order.city}, {order.state} {order.zipCode}
              {order.addressVerified === false && (
                <>
                  <br />
                  <span class="badge badge-warn">address not verified</span>
                </>
              )}
            </>
          )}
        </dd>
        {order.trackingNumber && (
          <>
            <dt>Tracking</dt>
            <dd class="mono">{order.trackingNumber}</dd>
          </>
        )}
      </dl>
      {onEdit && (
        <button type="button" class="btn btn-secondary btn-small" onClick={onEdit}>
          Edit customer or address
        </button>
      )}
    </section>
  );
}

export function FeedbackCard({ feedback }: { feedback: string }) {
  return (
    <section class="card" aria-labelledby="feedback-title">
      <h2 id="feedback-title">Customer feedback</h2>
      {feedback.split(/\n\n+/).map((entry) => {
        const m = /^\[([^\]]+)\]\s*([\s\S]*)$/.exec(entry);
        return (
          <blockquote key={entry} class="feedback">
            {m ? (
              <>
                <p class="muted small">{formatDateTime(m[1])}</p>
                <p>{m[2]}</p>
              </>
            ) : (
              <p>{entry}</p>
            )}
          </blockquote>
        );
      })}
    </section>
  );
}
