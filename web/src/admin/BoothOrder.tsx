/**
 * An order the photographer takes at the booth: photo numbers, sizes and quantities typed in,
 * the customer's name (email and phone optional: a walk-in may want no receipt), pickup or
 * shipping. Sent with the admin token (`POST /api/orders/create`, `channel: booth`): no
 * CAPTCHA, no rate limit, and every event that is not archived can be sold, also one whose
 * online ordering is off or past its deadline.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { CustomerForm, type Fulfilment } from '../components/CustomerForm.js';
import { ErrorBox, Notice, QuantityInput, Spinner, useTitle } from '../components/common.js';
import { TrashIcon } from '../components/icons.js';
import { isDigital } from '../components/Offers.js';
import { ApiError, adminApi, ok } from '../lib/api.js';
import type { CreateOrderRequestInput, CreateOrderResponse } from '../lib/api-schema.js';
import { dollarsToCents, money } from '../lib/format.js';
import { useApi, useEventConfig } from '../lib/hooks.js';
import { useQuote } from '../lib/quote.js';
import { uuid } from '../lib/uuid.js';
import { type Customer, customerProblems, FIELD_OF, type Problems } from '../lib/validate.js';
import { onAdminError } from './session.js';

type Line = { id: number; number: string; size: string; quantity: number };
const EMPTY: Customer = { name: '', email: '', phone: '', street: '', city: '', state: '', zip: '' };
let lineSeq = 0;
const newLine = (size = ''): Line => ({ id: ++lineSeq, number: '', size, quantity: 1 });

type Created = Pick<CreateOrderResponse, 'orderNumber' | 'total'> & { email: string };

export default function BoothOrder() {
  useTitle('Booth order');
  const events = useApi('/event');
  const open = useMemo(() => (events.data ?? []).filter((e) => !e.status.isArchived), [events.data]);
  const [chosen, setChosen] = useState('');
  const eventSlug = chosen || open[0]?.code || '';
  const config = useEventConfig(eventSlug || null);
  const [lines, setLines] = useState<Line[]>(() => [newLine()]);
  const [customer, setCustomer] = useState<Customer>(EMPTY);
  const [fulfilment, setFulfilment] = useState<Fulfilment>('pickup');
  const [problems, setProblems] = useState<Problems>({});
  const [lineProblem, setLineProblem] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const attempt = useRef<{ key: string; fingerprint: string } | null>(null);

  const c = config.data;
  const sizeOf = (l: Line) => (c && l.size in c.prices ? l.size : (c?.defaultSize ?? ''));
  // The server's figures (packages, early bird, shipping), as the order will get them.
  const filledLines = lines.filter((l) => l.number.trim() !== '');
  // Digital files alone are not delivered: no delivery choice, no address (the order is "digital").
  const allDigital = filledLines.length > 0 && filledLines.every((l) => isDigital(sizeOf(l)));
  const delivery: NonNullable<CreateOrderRequestInput['fulfillmentType']> = allDigital ? 'digital' : fulfilment;
  const priced = useQuote(
    c && filledLines.length > 0
      ? {
          eventSlug,
          lines: filledLines.map((l) => ({
            photo: l.number.trim().replace(/^#/, ''),
            size: sizeOf(l),
            quantity: l.quantity,
          })),
          fulfilment: delivery,
          coupon: null,
        }
      : null,
    undefined,
    { admin: true },
  );
  const quote = priced.quote;

  const update = (id: number, patch: Partial<Line>) =>
    setLines((ls) => ls.map((l) => (l.id === id ? { ...l, ...patch } : l)));

  const reset = () => {
    setLines([newLine()]);
    setCustomer(EMPTY);
    setFulfilment('pickup');
    setProblems({});
    setError('');
    setCreated(null);
    attempt.current = null;
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!c || busy) return;
    setError('');
    const filled = lines.filter((l) => l.number.trim() !== '');
    const found = customerProblems(customer, { ship: delivery === 'ship', phoneRequired: false, booth: true });
    setProblems(found);
    setLineProblem(filled.length === 0 ? 'Enter at least one photo number.' : '');
    if (filled.length === 0 || Object.keys(found).length > 0) {
      setError('Please check the highlighted fields.');
      return;
    }
    const ship = delivery === 'ship';
    const body = {
      eventSlug,
      photos: filled.map((l) => ({ number: l.number.trim().replace(/^#/, ''), size: sizeOf(l), quantity: l.quantity })),
      customerInfo: {
        name: customer.name.trim(),
        ...(customer.email.trim() ? { email: customer.email.trim() } : {}),
        phone: customer.phone.trim(),
      },
      fulfillmentType: delivery,
      ...(ship
        ? {
            shippingAddress: {
              line1: customer.street.trim(),
              city: customer.city.trim(),
              state: customer.state.trim().toUpperCase(),
              zip: customer.zip.trim(),
            },
          }
        : {}),
    };
    const fingerprint = JSON.stringify(body);
    if (attempt.current?.fingerprint !== fingerprint) attempt.current = { key: uuid(), fingerprint };
    setBusy(true);
    try {
      const res = await ok(
        adminApi.POST('/api/orders/create', { body, headers: { 'Idempotency-Key': attempt.current.key } }),
      );
      setCreated({ orderNumber: res.orderNumber, total: res.total, email: customer.email.trim() });
    } catch (err) {
      const e2 = onAdminError(err);
      if (e2 instanceof ApiError) {
        const byField: Problems = {};
        for (const [f, m] of Object.entries(e2.fieldErrors())) {
          const mine = FIELD_OF[f];
          if (mine) byField[mine] = m;
          else if (f.startsWith('photos')) setLineProblem(`Line ${Number(f.split('.')[1] ?? 0) + 1}: ${m}`);
        }
        setProblems(byField);
      }
      setError(e2.message);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <>
        <h1>Booth order</h1>
        <Notice kind="ok" role="status">
          <p>
            Order <strong class="mono">{created.orderNumber}</strong> ({created.total}) is placed.{' '}
            {created.email ? `The receipt goes to ${created.email}.` : 'No email was given, so no receipt is sent.'}
          </p>
        </Notice>
        <div class="actions">
          <a class="btn btn-primary" href={`/admin/orders/${encodeURIComponent(created.orderNumber)}`}>
            Open the order
          </a>
          <button type="button" class="btn btn-secondary" onClick={reset}>
            New booth order
          </button>
        </div>
      </>
    );
  }

  return (
    <>
      <h1>Booth order</h1>
      <p class="muted">
        Take an order at the booth: the photo numbers, sizes and the customer’s name. With an email address the customer
        gets the receipt, as for orders online. Every event that is not archived is listed, also those closed for online
        orders.
      </p>
      {events.error && <ErrorBox error={events.error} onRetry={events.reload} />}
      {events.data && open.length === 0 && (
        <Notice kind="warn">Every event is archived. Bring one back under Events to sell for it.</Notice>
      )}
      {open.length > 0 && (
        <form class="booth" onSubmit={submit} noValidate>
          <div class="field">
            <label for="booth-event">Event</label>
            <select
              id="booth-event"
              value={eventSlug}
              onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}
            >
              {open.map((ev) => (
                <option key={ev.code} value={ev.code}>
                  {ev.status.active ? ev.name : `${ev.name} (closed online)`}
                </option>
              ))}
            </select>
          </div>
          {!c && !config.error && <Spinner label="Loading prices…" />}
          {config.error && <ErrorBox error={config.error} onRetry={config.reload} />}
          {c && (
            <fieldset class="form-section">
              <legend>Prints</legend>
              <ul class="booth-lines">
                {lines.map((l, i) => (
                  <li key={l.id} class="booth-line">
                    <div class="field">
                      <label for={`bl-number-${l.id}`}>Photo #</label>
                      <input
                        id={`bl-number-${l.id}`}
                        inputMode="numeric"
                        autoComplete="off"
                        value={l.number}
                        onInput={(e) => update(l.id, { number: (e.target as HTMLInputElement).value })}
                      />
                    </div>
                    <div class="field">
                      <label for={`bl-size-${l.id}`}>Size</label>
                      <select
                        id={`bl-size-${l.id}`}
                        value={sizeOf(l)}
                        onChange={(e) => update(l.id, { size: (e.target as HTMLSelectElement).value })}
                      >
                        {Object.entries(c.prices).map(([s, p]) => (
                          <option key={s} value={s}>
                            {s} · {money(dollarsToCents(p))}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div class="field">
                      <span class="label" id={`bl-qty-label-${l.id}`}>
                        Qty
                      </span>
                      <QuantityInput
                        id={`bl-qty-${l.id}`}
                        label={`Quantity, line ${i + 1}`}
                        value={l.quantity}
                        onChange={(quantity) => update(l.id, { quantity })}
                      />
                    </div>
                    <button
                      type="button"
                      class="btn btn-icon btn-ghost"
                      aria-label={`Remove line ${i + 1}`}
                      disabled={lines.length === 1}
                      onClick={() => setLines((ls) => ls.filter((x) => x.id !== l.id))}
                    >
                      <TrashIcon size={20} />
                    </button>
                  </li>
                ))}
              </ul>
              {lineProblem && <p class="field-error">{lineProblem}</p>}
              <button
                type="button"
                class="btn btn-secondary btn-small"
                // A new line starts at the event's default size, whatever the line above says.
                onClick={() => setLines((ls) => [...ls, newLine(c?.defaultSize ?? '')])}
              >
                + Add a photo
              </button>
            </fieldset>
          )}
          <CustomerForm
            prefix="booth"
            value={customer}
            onChange={setCustomer}
            fulfilment={fulfilment}
            onFulfilment={setFulfilment}
            problems={problems}
            shippingLabel={c ? `+ ${money(dollarsToCents(c.shippingFee))}` : ''}
            phoneRequired={false}
            delivery={!allDigital}
            booth
          />
          <p class="booth-total" aria-live="polite">
            Total <strong>{quote ? quote.total : '—'}</strong>
            {quote && quote.discount !== '$0.00' && <span class="muted"> (discount {quote.discount})</span>}
            {quote && quote.shippingFee !== '$0.00' && <span class="muted"> (shipping {quote.shippingFee})</span>}
            {priced.error && <span class="muted"> ({priced.error.message})</span>}
          </p>
          {error && (
            <Notice kind="error" role="alert">
              {error}
            </Notice>
          )}
          <button type="submit" class="btn btn-primary" disabled={busy || !c}>
            {busy ? 'Placing…' : 'Place booth order'}
          </button>
        </form>
      )}
    </>
  );
}
