/**
 * One order: lines, totals, customer, delivery; mark paid / cancel (unpaid) / void (paid: a
 * refund), ship with a tracking number (or undo), download the labels, edit the customer and
 * address before fulfilment. Fulfilment follows the prints: "Ready", "Collected" and "Mark
 * shipped" answered NOT_PRINTED offer "Mark all printed and …" (printAll). An order of digital
 * files alone has nothing to ship, collect, label or print. Each control shows only to a role
 * that may use it (GET /api/admin/me).
 */
import { useEffect, useState } from 'preact/hooks';
import { CustomerForm, type Fulfilment } from '../components/CustomerForm.js';
import { ConfirmButton, ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { ApiError, adminApi, asFile, ok } from '../lib/api.js';
import type { AdminOrder as Order } from '../lib/api-schema.js';
import { formatDateTime } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import { eventPath } from '../lib/router.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';
import { type Customer, customerProblems, FIELD_OF, type Problems } from '../lib/validate.js';
import { OrderHistory, PrintLineRow } from './OrderFulfilment.js';
import { may, useAdminMe } from './role.js';
import { adminToken, onAdminError } from './session.js';
import { downloadFile, downloadLabel, itemLines, removedPhotos, StatusBadges } from './shared.js';

type PickupStatus = NonNullable<Order['pickupStatus']>;

/** A change refused because prints are missing (409 NOT_PRINTED): what to say, and the same change with printAll. */
type MissingPrints = {
  doing: string;
  lines: { itemId: string; photoNumber: string; size: string; quantity: number }[];
  retry: () => void;
};

/** The lines a NOT_PRINTED answer names, when it is one. */
function notPrintedLines(err: unknown): MissingPrints['lines'] | null {
  if (!(err instanceof ApiError) || err.code !== 'NOT_PRINTED') return null;
  const d = err.detailsJson() as { notPrinted?: MissingPrints['lines'] } | undefined;
  return d?.notPrinted ?? [];
}

const TRACKING = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,62}[A-Za-z0-9])?$/;

export default function OrderDetail({ orderRef }: { orderRef: string }) {
  // Staff may mark paid but not void or cancel: those buttons show only to a role that may.
  const me = useAdminMe(useStore(adminToken));
  const loaded = useApi('/api/orders/{id}', { path: { id: orderRef } }, { admin: true });
  const [order, setOrder] = useState<Order | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>('');
  const [editing, setEditing] = useState(false);
  const [missing, setMissing] = useState<MissingPrints | null>(null);
  useTitle(`Order ${orderRef}`);

  useEffect(() => {
    if (loaded.data) setOrder(loaded.data);
    if (loaded.error) onAdminError(loaded.error);
  }, [loaded.data, loaded.error]);

  if (loaded.error && !order) {
    return (
      <>
        <p>
          <a href="/admin">← All orders</a>
        </p>
        <ErrorBox error={loaded.error} onRetry={loaded.reload} />
      </>
    );
  }
  if (!order) return <Spinner label="Loading the order…" />;

  /** Runs a change; `retryAllPrinted` is the same change with printAll, offered when prints are missing. */
  const run = async (
    what: () => Promise<Order>,
    done?: (o: Order) => string,
    retryAllPrinted?: { doing: string; again: () => void },
  ) => {
    setBusy(true);
    setError('');
    setMissing(null);
    try {
      const o = await what();
      setOrder(o);
      if (done) showToast(done(o));
    } catch (err) {
      const lines = notPrintedLines(err);
      if (lines && retryAllPrinted) setMissing({ doing: retryAllPrinted.doing, lines, retry: retryAllPrinted.again });
      else setError(onAdminError(err).message);
    } finally {
      setBusy(false);
    }
  };

  const setStatus = (status: Order['status']) =>
    run(
      async () =>
        (
          await ok(
            adminApi.POST('/api/orders/{id}/update-status', { params: { path: { id: order.id } }, body: { status } }),
          )
        ).order,
      (o) => `Order ${o.orderNumber} is now ${o.status}`,
    );

  const setPickup = (status: PickupStatus, printAll = false): Promise<void> =>
    run(
      async () =>
        (
          await ok(
            adminApi.POST('/api/orders/{id}/pickup', {
              params: { path: { id: order.id } },
              body: printAll ? { status, printAll } : { status },
            }),
          )
        ).order,
      (o) => `Order ${o.orderNumber} is ${o.pickupStatus}${printAll ? '; every print is marked printed' : ''}`,
      printAll
        ? undefined
        : { doing: status === 'ready' ? 'ready for pickup' : 'collected', again: () => void setPickup(status, true) },
    );

  const lines = itemLines(order.items);
  // The owner may undo anyone's "Mark paid"; staff only their own (docs/contract.md, "Roles").
  const markedPaidBy = order.history.findLast((h) => h.action === 'status' && h.to === 'paid')?.by;
  const canUndoPaid =
    !!order.undoPaidUntil &&
    Date.parse(order.undoPaidUntil) > Date.now() &&
    (me?.role === 'owner' || (me !== null && markedPaidBy === me.by));
  const pickupPaid = order.fulfillmentType === 'pickup' && order.status === 'paid' && order.pickupStatus !== null;
  const held = order.verificationRequired;
  const digital = order.fulfillmentType === 'digital';
  // Labels and print files are for orders that go out: not a cancelled or voided one, nor digital files.
  const goesOut = !digital && (order.status === 'pending' || order.status === 'paid');
  // What the role may use (GET /api/admin/me): a viewer sees the order and none of its actions.
  const editable =
    may(me, 'PUT /api/orders/:id') &&
    !held &&
    (order.status === 'pending' || order.status === 'paid') &&
    order.shippingStatus !== 'shipped';
  const canShip =
    may(me, 'POST /api/orders/:id/update-shipping') &&
    !held &&
    order.status === 'paid' &&
    order.fulfillmentType === 'ship';
  const mayLabel = goesOut && may(me, 'GET /api/orders/:id/envelope/png');
  const mayPrintFiles = goesOut && may(me, 'GET /api/orders/:id/print-files');
  const mayPickup = may(me, 'POST /api/orders/:id/pickup');
  const removed = removedPhotos(order);

  return (
    <>
      <p>
        <a href="/admin">← All orders</a>
      </p>
      <div class="admin-head">
        <h1>
          Order <span class="mono">{order.orderNumber}</span>
        </h1>
        <div class="badges">
          <StatusBadges order={order} />
        </div>
      </div>
      <p class="muted">
        Placed {formatDateTime(order.createdAt)} · <a href={eventPath(order.eventSlug)}>{order.eventSlug}</a> ·{' '}
        {order.channel === 'booth' ? 'entered at the booth' : 'ordered online'}
      </p>
      {error && (
        <Notice kind="error" role="alert">
          {error}
        </Notice>
      )}
      {missing && (
        <Notice kind="warn" role="alert">
          <p>
            Not {missing.doing} yet: {missing.lines.length === 1 ? 'this print is' : 'these prints are'} not marked
            printed:
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
      )}
      {order.status === 'pending' && removed.length > 0 && (
        <Notice kind="warn">
          {removed.length === 1 ? 'Photo' : 'Photos'} {removed.map((n) => `#${n}`).join(', ')} of this order{' '}
          {removed.length === 1 ? 'was' : 'were'} removed after a takedown request: it will not be printed or sold. Edit
          the order or void it before taking payment.
        </Notice>
      )}
      {held && (
        <Notice kind="warn">
          Waiting for the customer to confirm this high-value order by email; it cannot be changed until then.
        </Notice>
      )}

      <div class="detail-grid">
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
          {editable && !editing && (
            <button type="button" class="btn btn-secondary btn-small" onClick={() => setEditing(true)}>
              Edit customer or address
            </button>
          )}
        </section>
      </div>

      {editing && (
        <EditOrder
          order={order}
          onDone={(o) => {
            setEditing(false);
            if (o) {
              setOrder(o);
              showToast(`Order ${o.orderNumber} updated`);
            }
          }}
        />
      )}

      <section class="card" aria-labelledby="actions-title">
        <h2 id="actions-title">Actions</h2>
        <div class="actions">
          {order.status === 'pending' && !held && (
            <>
              {may(me, 'status:paid') && (
                <ConfirmButton
                  class="btn btn-primary"
                  disabled={busy}
                  confirmLabel={`Confirm: ${order.total} received`}
                  onConfirm={() => setStatus('paid')}
                >
                  Mark paid
                </ConfirmButton>
              )}
              {may(me, 'status:cancelled') && (
                <ConfirmButton
                  class="btn btn-secondary"
                  disabled={busy}
                  confirmLabel="Confirm: cancel order"
                  onConfirm={() => setStatus('cancelled')}
                >
                  Cancel order
                </ConfirmButton>
              )}
            </>
          )}
          {order.status === 'paid' && canUndoPaid && may(me, 'status:pending') && (
            <button
              type="button"
              class="btn btn-secondary"
              disabled={busy}
              title="Back to pending: possible for 15 minutes after marking it paid, while nothing is printed or handed over"
              onClick={() => setStatus('pending')}
            >
              Undo “Mark paid”
            </button>
          )}
          {pickupPaid && mayPickup && order.pickupStatus === 'waiting' && (
            <button type="button" class="btn btn-primary" disabled={busy} onClick={() => setPickup('ready')}>
              Ready for pickup
            </button>
          )}
          {pickupPaid && mayPickup && order.pickupStatus !== 'collected' && (
            <button type="button" class="btn btn-primary" disabled={busy} onClick={() => setPickup('collected')}>
              Collected
            </button>
          )}
          {pickupPaid && mayPickup && order.pickupStatus === 'collected' && (
            <button type="button" class="btn btn-secondary" disabled={busy} onClick={() => setPickup('ready')}>
              Not collected after all
            </button>
          )}
          {order.status === 'paid' && may(me, 'status:void') && (
            <ConfirmButton
              disabled={busy}
              confirmLabel={`Confirm: void and refund ${order.total}`}
              onConfirm={() => setStatus('void')}
            >
              Void (refund)
            </ConfirmButton>
          )}
          {mayLabel && (
            <>
              <button
                type="button"
                class="btn btn-secondary"
                onClick={() =>
                  run(async () => {
                    await downloadLabel(order, 'png');
                    return order;
                  })
                }
              >
                Label (PNG)
              </button>
              <button
                type="button"
                class="btn btn-secondary"
                onClick={() =>
                  run(async () => {
                    await downloadLabel(order, 'docx');
                    return order;
                  })
                }
              >
                Label (DOCX)
              </button>
            </>
          )}
          {mayPrintFiles && (
            <button
              type="button"
              class="btn btn-secondary"
              title="The print-ready files of this order (300 dpi, cropped as the customer chose)"
              onClick={() =>
                run(async () => {
                  await downloadFile(
                    adminApi.GET('/api/orders/{id}/print-files', { params: { path: { id: order.id } }, ...asFile }),
                    `prints-${order.orderNumber}.zip`,
                  );
                  return order;
                })
              }
            >
              Print files (ZIP)
            </button>
          )}
        </div>
        {order.status === 'pending' && !held && may(me, 'status:cancelled') && (
          <p class="muted small">
            Cancel an order that will not be paid: nothing was charged, and it leaves the lists of orders to serve. Once
            it is paid, “Void (refund)” takes it back and refunds the customer.
          </p>
        )}
        {order.status === 'paid' && may(me, 'status:void') && (
          <p class="muted small">
            Void (refund): the order is taken back after payment and the customer gets the money back (a payment made
            online is refunded through it at once; one taken at the booth, you hand back).
          </p>
        )}
        {canShip && <Shipping order={order} busy={busy} run={run} />}
        {order.fulfillmentType === 'ship' && order.status === 'pending' && !held && may(me, 'status:paid') && (
          <p class="muted small">Mark the order paid to ship it.</p>
        )}
      </section>

      {order.feedback && (
        <section class="card" aria-labelledby="feedback-title">
          <h2 id="feedback-title">Customer feedback</h2>
          {order.feedback.split(/\n\n+/).map((entry) => {
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
      )}

      <OrderHistory history={order.history} />
    </>
  );
}

function Shipping({
  order,
  busy,
  run,
}: {
  order: Order;
  busy: boolean;
  run: (
    what: () => Promise<Order>,
    done?: (o: Order) => string,
    retryAllPrinted?: { doing: string; again: () => void },
  ) => Promise<void>;
}) {
  const [tracking, setTracking] = useState(order.trackingNumber);
  const [problem, setProblem] = useState('');
  const shipped = order.shippingStatus === 'shipped';
  const updateShipping = (body: { trackingNumber?: string; shipped?: boolean; printAll?: boolean }) =>
    ok(adminApi.POST('/api/orders/{id}/update-shipping', { params: { path: { id: order.id } }, body }));
  const ship = (e: Event) => {
    e.preventDefault();
    const t = tracking.trim();
    if (t && !TRACKING.test(t)) {
      setProblem('1–64 letters, digits, spaces or hyphens');
      return;
    }
    setProblem('');
    const send = (printAll: boolean): Promise<void> =>
      run(
        async () => {
          const body = { ...(t ? { trackingNumber: t } : { shipped: true }), ...(printAll ? { printAll } : {}) };
          return (await updateShipping(body)).order;
        },
        (o) =>
          `Order ${o.orderNumber} marked shipped${o.trackingNumber ? ` (tracking ${o.trackingNumber})` : ''}; the customer is notified`,
        printAll ? undefined : { doing: 'shipped', again: () => void send(true) },
      );
    void send(false);
  };
  return (
    <form class="ship-form" onSubmit={ship} noValidate>
      <div class="field">
        <label for="tracking">Tracking number</label>
        <input
          id="tracking"
          value={tracking}
          maxLength={64}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'tracking-error' : undefined}
          onInput={(e) => setTracking((e.target as HTMLInputElement).value)}
        />
        {problem && (
          <p id="tracking-error" class="field-error">
            {problem}
          </p>
        )}
      </div>
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {shipped ? 'Update tracking' : 'Mark shipped'}
        </button>
        {shipped && (
          <ConfirmButton
            class="btn btn-secondary"
            disabled={busy}
            confirmLabel="Confirm: not shipped"
            onConfirm={() =>
              run(
                async () => (await updateShipping({ shipped: false })).order,
                (o) => `Order ${o.orderNumber} is no longer marked shipped`,
              )
            }
          >
            Undo shipped
          </ConfirmButton>
        )}
      </div>
    </form>
  );
}

function EditOrder({ order, onDone }: { order: Order; onDone: (o?: Order) => void }) {
  const [customer, setCustomer] = useState<Customer>({
    name: order.customerName,
    email: order.customerEmail,
    phone: order.customerPhone,
    street: order.shippingAddress,
    city: order.city,
    state: order.state,
    zip: order.zipCode,
  });
  // Digital files alone have no delivery to choose (the form leaves it out and never sends it).
  const digital = order.fulfillmentType === 'digital';
  const [fulfilment, setFulfilment] = useState<Fulfilment>(
    order.fulfillmentType === 'digital' ? 'pickup' : order.fulfillmentType,
  );
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async (e: Event) => {
    e.preventDefault();
    const found = customerProblems(customer, { ship: !digital && fulfilment === 'ship', phoneRequired: false });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const contact = {
      customerName: customer.name.trim(),
      customerEmail: customer.email.trim(),
      customerPhone: customer.phone.trim(),
    };
    const delivery = {
      fulfillmentType: fulfilment,
      shippingAddress: customer.street.trim(),
      city: customer.city.trim(),
      state: customer.state.trim().toUpperCase(),
      zipCode: customer.zip.trim(),
    };
    const next = digital ? contact : { ...contact, ...delivery };
    const changed = Object.fromEntries(
      Object.entries(next).filter(([k, v]) => v !== (order as unknown as Record<string, string>)[k]),
    ) as Partial<typeof next>;
    if (Object.keys(changed).length === 0) {
      onDone();
      return;
    }
    setBusy(true);
    setError('');
    try {
      onDone(await ok(adminApi.PUT('/api/orders/{id}', { params: { path: { id: order.id } }, body: changed })));
    } catch (err) {
      const e2 = onAdminError(err);
      if (e2 instanceof ApiError) {
        const byField: Problems = {};
        for (const [f, m] of Object.entries(e2.fieldErrors())) {
          const mine = FIELD_OF[f];
          if (mine) byField[mine] = m;
        }
        setProblems(byField);
      }
      setError(e2.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="edit-title">
      <h2 id="edit-title">Edit order</h2>
      <CustomerForm
        prefix="edit"
        value={customer}
        onChange={setCustomer}
        fulfilment={fulfilment}
        onFulfilment={setFulfilment}
        problems={problems}
        shippingLabel="(the price is not changed)"
        phoneRequired={false}
        delivery={!digital}
      />
      {error && (
        <Notice kind="error" role="alert">
          {error}
        </Notice>
      )}
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Save changes
        </button>
        <button type="button" class="btn btn-secondary" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
