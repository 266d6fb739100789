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
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { ApiError, adminApi, ok } from '../lib/api.js';
import type { AdminOrder as Order } from '../lib/api-schema.js';
import { formatDateTime } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import { eventPath } from '../lib/router.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';
import { type Customer, customerProblems, FIELD_OF, type Problems } from '../lib/validate.js';
import { OrderActions } from './OrderActions.js';
import { OrderHistory } from './OrderFulfilment.js';
import { CustomerCard, FeedbackCard, MissingPrintsNotice, OrderLines } from './OrderSections.js';
import { useOrderChanges } from './order-changes.js';
import { may, useAdminMe } from './role.js';
import { adminToken, onAdminError } from './session.js';
import { removedPhotos, StatusBadges } from './shared.js';

export default function OrderDetail({ orderRef }: { orderRef: string }) {
  // Staff may mark paid but not void or cancel: those buttons show only to a role that may.
  const me = useAdminMe(useStore(adminToken));
  const loaded = useApi('/api/orders/{id}', { path: { id: orderRef } }, { admin: true });
  const [order, setOrder] = useState<Order | undefined>();
  const { busy, error, missing, run } = useOrderChanges(setOrder);
  const [editing, setEditing] = useState(false);
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

  const held = order.verificationRequired;
  // What the role may use (GET /api/admin/me): a viewer sees the order and none of its actions.
  const editable =
    may(me, 'PUT /api/orders/:id') &&
    !held &&
    (order.status === 'pending' || order.status === 'paid') &&
    order.shippingStatus !== 'shipped';
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
      {missing && <MissingPrintsNotice missing={missing} busy={busy} />}
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
        <OrderLines order={order} />
        <CustomerCard order={order} onEdit={editable && !editing ? () => setEditing(true) : undefined} />
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

      <OrderActions order={order} me={me} busy={busy} run={run} />

      {order.feedback && <FeedbackCard feedback={order.feedback} />}

      <OrderHistory history={order.history} />
    </>
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
