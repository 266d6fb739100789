/**
 * The order page's actions, each shown only to a role that may use it (GET /api/admin/me): mark
 * paid, cancel, undo "Mark paid", void (a refund), pickup's "Ready" and "Collected", shipping
 * with a tracking number (or undone), and the label and print-file downloads.
 */
import { useState } from 'preact/hooks';
import { ConfirmButton } from '../components/common.js';
import { adminApi, asFile, ok } from '../lib/api.js';
import type { AdminOrder as Order } from '../lib/api-schema.js';
import type { RunChange } from './order-changes.js';
import { type AdminMe, may } from './role.js';
import { downloadFile, downloadLabel } from './shared.js';

type PickupStatus = NonNullable<Order['pickupStatus']>;

const TRACKING = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,62}[A-Za-z0-9])?$/;

export function OrderActions({
  order,
  me,
  busy,
  run,
}: {
  order: Order;
  me: AdminMe | null;
  busy: boolean;
  run: RunChange;
}) {
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

  // The owner may undo anyone's "Mark paid"; staff only their own (docs/contract.md, "Roles").
  const markedPaidBy = order.history.findLast((h) => h.action === 'status' && h.to === 'paid')?.by;
  const canUndoPaid =
    !!order.undoPaidUntil &&
    Date.parse(order.undoPaidUntil) > Date.now() &&
    (me?.role === 'owner' || (me !== null && markedPaidBy === me.by));
  const pickupPaid = order.fulfillmentType === 'pickup' && order.status === 'paid' && order.pickupStatus !== null;
  const held = order.verificationRequired;
  const canShip =
    may(me, 'POST /api/orders/:id/update-shipping') &&
    !held &&
    order.status === 'paid' &&
    order.fulfillmentType === 'ship';
  const mayPickup = may(me, 'POST /api/orders/:id/pickup');

  return (
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
        <OrderDownloads order={order} me={me} run={run} />
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
  );
}

/** The label and print-file downloads, for an order that goes out and a role that may fetch them. */
function OrderDownloads({ order, me, run }: { order: Order; me: AdminMe | null; run: RunChange }) {
  // Labels and print files are for orders that go out: not a cancelled or voided one, nor digital files.
  const goesOut = order.fulfillmentType !== 'digital' && (order.status === 'pending' || order.status === 'paid');
  const mayLabel = goesOut && may(me, 'GET /api/orders/:id/envelope/png');
  const mayPrintFiles = goesOut && may(me, 'GET /api/orders/:id/print-files');
  return (
    <>
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
    </>
  );
}

function Shipping({ order, busy, run }: { order: Order; busy: boolean; run: RunChange }) {
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
