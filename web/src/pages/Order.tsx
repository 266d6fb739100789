/**
 * After checkout: the order number, what happens next (a confirmation link for high-value
 * orders), the order's current status, opt-in notifications, and feedback. The receipt mail
 * links here too (`/order/<orderNumber>` and `/?feedback=<orderNumber>`), and push
 * notifications (`/?order=<orderNumber>`), possibly on another device: there the page asks
 * for the order's email address to show its status (`POST /api/orders/lookup`), and the
 * feedback form shows as well. `/order` alone finds an order by number and email (the
 * home page's "Find your order").
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Notice, useTitle } from '../components/common.js';
import { BellIcon } from '../components/icons.js';
import { OrderQr } from '../components/OrderQr.js';
import { type ApiError, api, localUrl, ok } from '../lib/api.js';
import type { CustomerOrder, FeedbackRequestInput } from '../lib/api-schema.js';
import { formatDate } from '../lib/format.js';
import { pushSupported, subscribePush } from '../lib/push.js';
import { lookedUpOrders, placedOrders } from '../lib/shop.js';
import { useStore } from '../lib/store.js';

type Fulfilment = CustomerOrder['fulfillmentType'];

/**
 * How the order reaches the customer, in words: never "shipped" before it is (the live
 * `shippingStatus` says so), and digital files alone speak of download links.
 */
function deliveryWords(fulfilment: Fulfilment, shippingStatus?: CustomerOrder['shippingStatus']): string {
  if (fulfilment === 'digital') return 'digital files: download links';
  if (fulfilment === 'pickup') return 'pickup at the booth';
  return shippingStatus === 'shipped' ? 'shipped to you' : 'to be shipped to you';
}

/** What happens next while the order waits for payment. */
function nextWords(fulfilment: Fulfilment): string {
  if (fulfilment === 'digital') return 'Your download links come by email, and show on this page, once it is paid.';
  if (fulfilment === 'pickup')
    return 'We prepare your prints once it is paid; collect them at the booth with your order number.';
  return 'Your prints are shipped once it is paid; we will email you when they are on their way.';
}

export default function OrderPage({ orderNumber, query }: { orderNumber: string; query: URLSearchParams }) {
  useTitle(`Order ${orderNumber}`);
  const orders = useStore(placedOrders);
  const order = orders[orderNumber];
  const lookups = useStore(lookedUpOrders);
  const knownEmail = order?.email ?? lookups[orderNumber];
  const status = useOrderLookup(orderNumber, knownEmail);
  const live = status.found;
  const feedbackFirst = query.get('feedback') !== null;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!feedbackFirst) heading.current?.focus();
  }, [feedbackFirst]);

  // What this device remembered at checkout gives way to the order as it is now: once the
  // customer has confirmed a held order, it is no longer shown (or remembered) as held.
  const held = live ? live.verificationRequired : (order?.verificationRequired ?? false);
  useEffect(() => {
    if (order?.verificationRequired && live && !live.verificationRequired) {
      placedOrders.update((all) => ({ ...all, [orderNumber]: { ...order, verificationRequired: false } }));
    }
  }, [live, order, orderNumber]);

  return (
    <main class="page page-narrow" id="main">
      {order ? (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {held ? 'Almost done: check your email' : 'Thank you for your order!'}
          </h1>
          <div class="order-card">
            <p class="muted">Your order number</p>
            <p class="order-number" data-testid="order-number">
              {order.orderNumber}
            </p>
            <p>
              {order.eventName} · <strong>{order.total}</strong> ·{' '}
              {deliveryWords(live?.fulfillmentType ?? order.fulfillmentType, live?.shippingStatus)}
            </p>
            <ul class="plain small">
              {order.items.split(/;\s*/).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
          {held ? (
            <Notice kind="warn" role="status">
              This order is large, so we need you to confirm it: we sent a link to <strong>{order.email}</strong>. Your
              order is held until you open that link and confirm (within 48 hours).
            </Notice>
          ) : (
            (!live || live.status === 'pending') && (
              <Notice kind="ok" role="status">
                A receipt is on its way to <strong>{order.email}</strong>.{' '}
                {nextWords(live?.fulfillmentType ?? order.fulfillmentType)}
              </Notice>
            )
          )}
          {/* The QR opens the order at the booth: nothing to collect for digital files alone. */}
          {!held && order.fulfillmentType !== 'digital' && (
            <OrderQr orderNumber={order.orderNumber} pickup={order.fulfillmentType === 'pickup'} />
          )}
          <OrderStatus orderNumber={order.orderNumber} lookup={status} askEmail={false} />
          <PushOptIn orderNumber={order.orderNumber} email={order.email} fulfilment={order.fulfillmentType} />
        </>
      ) : (
        <>
          <h1 ref={heading} tabIndex={-1}>
            Order {orderNumber}
          </h1>
          <OrderStatus orderNumber={orderNumber} lookup={status} askEmail={!knownEmail} />
          <OrderQr orderNumber={orderNumber} pickup={false} />
        </>
      )}
      <Feedback orderNumber={orderNumber} autoFocus={feedbackFirst} knownEmail={knownEmail} />
      <p>
        <a href="/">Back to the events</a>
      </p>
    </main>
  );
}

export type OrderLookup = {
  found: CustomerOrder | null;
  error: string;
  busy: boolean;
  /** Looks the order up with `email`; `quiet` shows no error (a lookup nobody asked for). */
  look(email: string, quiet: boolean): Promise<CustomerOrder | null>;
  fail(message: string): void;
};

/**
 * The order as it is now (`POST /api/orders/lookup`): looked up at once with an email this
 * device knows (it placed the order, or the customer typed it here), else when asked.
 */
export function useOrderLookup(orderNumber: string, knownEmail: string | undefined): OrderLookup {
  const [found, setFound] = useState<CustomerOrder | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const look = async (address: string, quiet: boolean): Promise<CustomerOrder | null> => {
    if (!quiet && !/^[^\s@]+@[^\s@]+$/.test(address)) {
      setError('Type the email address the order was placed with.');
      return null;
    }
    setBusy(true);
    setError('');
    try {
      const order = await ok(api.POST('/api/orders/lookup', { body: { orderNumber, email: address } }));
      setFound(order);
      return order;
    } catch (err) {
      const e2 = err as ApiError;
      if (!quiet) {
        setError(
          e2.code === 'ORDER_NOT_FOUND'
            ? `We could not find order ${orderNumber} with that email address. Use the address the receipt was sent to.`
            : e2.code === 'RATE_LIMITED'
              ? `Too many tries from this network. Please try again in ${e2.retryAfter ?? 60} seconds.`
              : e2.code === 'VALIDATION_FAILED'
                ? 'Type the order number and the email address the order was placed with.'
                : e2.message,
        );
      }
      return null;
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    // Its current status, without asking (nothing shows if it fails).
    if (knownEmail) void look(knownEmail, true);
  }, [knownEmail, orderNumber]);

  // Back from the payment page: the payment may be confirmed a moment later; look again.
  const backFromPayment = new URLSearchParams(window.location.search).get('paid') !== null;
  useEffect(() => {
    if (!backFromPayment || !found || found.status !== 'pending' || !knownEmail) return;
    const t = setTimeout(() => void look(knownEmail, true), 2000);
    return () => clearTimeout(t);
  }, [backFromPayment, found, knownEmail]);

  return { found, error, busy, look, fail: setError };
}

/**
 * The email address an order was placed with, typed by the customer: `name` makes the ids
 * (`<name>-email`, `<name>-error`, `<name>-hint`); the order lookup's is `lookup`.
 */
export function EmailField({
  value,
  onInput,
  error,
  name = 'lookup',
  label = 'Email address',
  hint,
}: {
  value: string;
  onInput: (v: string) => void;
  error: string;
  name?: string;
  label?: string;
  hint?: string;
}) {
  const described = error ? `${name}-error` : hint ? `${name}-hint` : undefined;
  return (
    <div class="field">
      <label for={`${name}-email`}>{label}</label>
      <input
        id={`${name}-email`}
        type="email"
        autoComplete="email"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {hint && (
        <p id={`${name}-hint`} class="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${name}-error`} class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** What the status means for the customer, in words. */
function statusInWords(o: CustomerOrder): { badge: string; kind: 'ok' | 'warn' | 'info' | 'muted'; text: string } {
  if (o.verificationRequired) {
    return {
      badge: 'Waiting for your confirmation',
      kind: 'warn',
      text: 'Open the link we emailed you to confirm this order. It is held until then.',
    };
  }
  switch (o.status) {
    case 'cancelled':
      return { badge: 'Cancelled', kind: 'muted', text: 'This order was cancelled.' };
    case 'void':
      return { badge: 'Cancelled', kind: 'muted', text: 'This order was cancelled by the photographer.' };
    case 'pending':
      return {
        badge: 'Waiting for payment',
        kind: 'info',
        text: `We have your order. ${nextWords(o.fulfillmentType)}`,
      };
    default:
      if (o.fulfillmentType === 'digital') {
        return { badge: 'Paid', kind: 'ok', text: 'Paid. Download your files below; the links are in your email too.' };
      }
      if (o.shippingStatus === 'shipped') {
        return {
          badge: 'Shipped',
          kind: 'ok',
          text: o.trackingNumber ? 'Your prints are on their way.' : 'Your prints are on their way to you.',
        };
      }
      if (o.fulfillmentType === 'pickup') {
        const pickup = {
          ready: 'Paid, and your prints are ready: collect them at the booth with your order number.',
          collected: 'Collected. Enjoy your prints!',
          waiting: 'Paid. We are preparing your prints; we will email you when they are ready to collect.',
        };
        return { badge: 'Paid', kind: 'ok', text: pickup[o.pickupStatus ?? 'waiting'] };
      }
      return {
        badge: 'Paid',
        kind: 'ok',
        text: 'Paid. Your prints will be shipped soon; we will email you when they are.',
      };
  }
}

/**
 * The order's current status. Where the email is known the status loads by itself;
 * elsewhere the customer types the email the order was placed with.
 */
function OrderStatus({
  orderNumber,
  lookup,
  askEmail,
}: {
  orderNumber: string;
  lookup: OrderLookup;
  askEmail: boolean;
}) {
  const [email, setEmail] = useState('');
  if (!lookup.found && !askEmail) return null;
  const submit = (e: Event) => {
    e.preventDefault();
    void lookup.look(email.trim(), false);
  };
  return (
    <section class="section" aria-labelledby="status-title">
      <h2 id="status-title">Order status</h2>
      {lookup.found ? (
        <StatusCard order={lookup.found} />
      ) : (
        <form onSubmit={submit} noValidate>
          <p class="muted">To see the status of order {orderNumber}, type the email address you ordered with.</p>
          <EmailField value={email} onInput={setEmail} error={lookup.error} />
          <button type="submit" class="btn btn-primary" disabled={lookup.busy}>
            {lookup.busy ? 'Looking…' : 'Show status'}
          </button>
        </form>
      )}
    </section>
  );
}

function StatusCard({ order }: { order: CustomerOrder }) {
  const words = statusInWords(order);
  return (
    <div class="status-card" data-testid="order-status">
      <p>
        <span class={`badge badge-${words.kind}`}>{words.badge}</span>
      </p>
      <p role="status">{words.text}</p>
      {order.trackingNumber && (
        <p>
          Tracking number: <strong class="tracking">{order.trackingNumber}</strong>
          {order.tracking && (
            <>
              {' '}
              <a href={order.tracking.url} data-external rel="noopener noreferrer" target="_blank">
                Track it with {order.tracking.carrier}
              </a>
            </>
          )}
        </p>
      )}
      {order.paymentInstructions && (
        <div class="payment-instructions" data-testid="payment-instructions">
          <h3>How to pay</h3>
          {order.paymentInstructions.split('\n').map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      <p class="muted small">
        {[
          order.eventName ?? order.eventSlug,
          `placed ${formatDate(order.createdAt)}`,
          deliveryWords(order.fulfillmentType, order.shippingStatus),
        ].join(' · ')}
      </p>
      <ul class="plain small">
        {order.items.split(/;\s*/).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p>
        Total <strong>{order.total}</strong>
        {order.discount !== '$0.00'
          ? ` (you saved ${order.discount}${order.couponCode ? ` with ${order.couponCode}` : ''})`
          : ''}
        {order.fulfillmentType === 'ship' ? ` (shipping ${order.shippingFee})` : ''}
      </p>
      {order.paymentUrl && (
        <p>
          <a class="btn btn-primary" href={order.paymentUrl} data-testid="pay-online">
            Pay {order.total} online
          </a>
        </p>
      )}
      {order.downloads.length > 0 && (
        <div class="downloads" data-testid="downloads">
          <h3>Your digital files</h3>
          <ul class="plain">
            {order.downloads.map((d) => (
              <li key={d.line}>
                <a href={localUrl(d.url)} download>
                  Download photo #{d.photoNumber}
                </a>{' '}
                <span class="muted small">until {formatDate(d.expiresAt)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function PushOptIn({ orderNumber, email, fulfilment }: { orderNumber: string; email: string; fulfilment: Fulfilment }) {
  // What the pushes of this order will say (services/push/payload.ts): a pickup order is
  // never shipped, it becomes ready at the booth; digital files alone are only paid.
  const when =
    fulfilment === 'pickup' ? 'is paid or ready for pickup' : fulfilment === 'digital' ? 'is paid' : 'is paid or ships';
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'error'>('idle');
  const [message, setMessage] = useState('');
  if (!pushSupported()) return null;
  const subscribe = async () => {
    setState('busy');
    try {
      setMessage(await subscribePush({ orderNumber, email }));
      setState('done');
    } catch (err) {
      setMessage((err as Error).message);
      setState('error');
    }
  };
  return (
    <section class="section" aria-labelledby="push-title">
      <h2 id="push-title">Updates on this device</h2>
      {state === 'done' ? (
        <p role="status">
          {message}. We will notify you when the order {when}.
        </p>
      ) : (
        <>
          <p class="muted">Get a notification when your order {when}.</p>
          <button type="button" class="btn btn-secondary btn-icon-text" onClick={subscribe} disabled={state === 'busy'}>
            <BellIcon size={20} /> Notify me
          </button>
          {state === 'error' && (
            <p class="field-error" role="alert">
              {message}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Feedback needs the order's email as proof that the order is the sender's (docs/contract.md,
 * "Orders"): the device that placed or looked up the order knows it; elsewhere (the receipt's
 * link on another device) the customer types it.
 */
function Feedback({
  orderNumber,
  autoFocus,
  knownEmail,
}: {
  orderNumber: string;
  autoFocus: boolean;
  knownEmail: string | undefined;
}) {
  const [text, setText] = useState('');
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState('');
  const [emailError, setEmailError] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (autoFocus) area.current?.focus();
  }, [autoFocus]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const value = text.trim();
    const address = (knownEmail ?? email).trim();
    setError('');
    setEmailError('');
    if (value === '') {
      setError('Write a few words first.');
      return;
    }
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
      setEmailError('Type the email address the order was placed with.');
      return;
    }
    setState('busy');
    try {
      const body: FeedbackRequestInput = { feedback: value, email: address };
      await api.POST('/api/orders/{orderNumber}/feedback', { params: { path: { orderNumber } }, body });
      if (!knownEmail) lookedUpOrders.update((all) => ({ ...all, [orderNumber]: address }));
      setState('done');
    } catch (err) {
      const e2 = err as ApiError;
      if (e2.code === 'ORDER_NOT_FOUND') {
        const message = `We could not find order ${orderNumber} with that email address. Use the address the receipt was sent to.`;
        if (knownEmail) setError(message);
        else setEmailError(message);
      } else {
        setError(
          e2.code === 'RATE_LIMITED'
            ? `Too many messages from this network. Please try again in ${e2.retryAfter ?? 60} seconds.`
            : e2.code === 'FEEDBACK_LIMIT'
              ? 'This order has all the feedback it can take. Thank you for writing!'
              : e2.message,
        );
      }
      setState('idle');
    }
  };

  return (
    <section class="section" id="feedback" aria-labelledby="feedback-title">
      <h2 id="feedback-title">How did we do?</h2>
      {state === 'done' ? (
        <Notice kind="ok" role="status">
          Thank you! Your feedback on order <span class="order-ref">{orderNumber}</span> was received.
        </Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          <label for="feedback-text">
            Your feedback on order <span class="order-ref">{orderNumber}</span>
          </label>
          <textarea
            id="feedback-text"
            ref={area}
            rows={4}
            maxLength={2000}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'feedback-error' : 'feedback-hint'}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          />
          <p id="feedback-hint" class="hint">
            {2000 - text.length} characters left
          </p>
          {error && (
            <p id="feedback-error" class="field-error" role="alert">
              {error}
            </p>
          )}
          {!knownEmail && (
            <EmailField
              name="feedback-from"
              label="The email address you ordered with"
              hint="So we know the feedback is from you."
              value={email}
              onInput={setEmail}
              error={emailError}
            />
          )}
          <button type="submit" class="btn btn-primary" disabled={state === 'busy'}>
            {state === 'busy' ? 'Sending…' : 'Send feedback'}
          </button>
        </form>
      )}
    </section>
  );
}
