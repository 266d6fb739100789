/**
 * The cart and the order form. The figures are the server's: every change of the cart, the
 * delivery or the coupon asks `POST /api/quote`, which prices by the same rules as the order
 * (packages, early bird or coupon, shipping), and the order goes to `POST /api/orders` with
 * exactly those amounts, so a price changed meanwhile is refused (PRICE_MISMATCH) instead of
 * charged unseen. One `Idempotency-Key` per attempt: a double tap or a retry after a lost
 * answer never orders twice. An order is for one event; a cart with photos of several events
 * is ordered one event at a time. Digital files alone need no delivery.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Captcha, type CaptchaHandle } from '../components/Captcha.js';
import { CropChooser } from '../components/CropChooser.js';
import { CustomerForm, type Fulfilment } from '../components/CustomerForm.js';
import { ErrorBox, Notice, QuantityInput, Spinner, useTitle } from '../components/common.js';
import { TrashIcon } from '../components/icons.js';
import { isDigital, sizeLabel } from '../components/Offers.js';
import { ApiError, api, localUrl, ok } from '../lib/api.js';
import type { EventConfig, Order, Quote } from '../lib/api-schema.js';
import { dollarsToCents, money, parseMoneyText } from '../lib/format.js';
import { closedMessage, eventConfigUrl, forget, useEventConfig } from '../lib/hooks.js';
import { useQuote } from '../lib/quote.js';
import { eventPath, navigate } from '../lib/router.js';
import { type CartLine, cart, placedOrders } from '../lib/shop.js';
import { persistent, useStore } from '../lib/store.js';
import { uuid } from '../lib/uuid.js';
import { type Customer, customerProblems, FIELD_OF, type Problems } from '../lib/validate.js';

const EMPTY: Customer = { name: '', email: '', phone: '', street: '', city: '', state: '', zip: '' };
/** Kept for the tab only (a shared booth tablet must not remember the last customer). */
const draft = persistent<{ customer: Customer; fulfilment: Fulfilment }>(
  'cps.checkout.v1',
  { customer: EMPTY, fulfilment: 'ship' },
  { kind: 'session' },
);

const sameLine = (a: CartLine, b: CartLine) => a.event === b.event && a.number === b.number && a.size === b.size;
const lineKey = (l: CartLine) => `${l.event}/${l.number}/${l.size}`;

function priceLines(lines: CartLine[], config: EventConfig) {
  const rows = lines.map((l) => {
    const unit = config.prices[l.size];
    return { line: l, unitCents: unit === undefined ? null : dollarsToCents(unit) };
  });
  const subtotal = rows.reduce((s, r) => s + (r.unitCents ?? 0) * r.line.quantity, 0);
  return { rows, subtotal };
}

/** Refusals that come after the CAPTCHA was verified (and spent). */
const SPENT_CAPTCHA = new Set(['ADDRESS_INVALID', 'COUPON_INVALID', 'PRICE_MISMATCH']);

export default function Checkout() {
  useTitle('Cart and checkout');
  const lines = useStore(cart);
  const events = useMemo(() => [...new Map(lines.map((l) => [l.event, l.eventName])).entries()], [lines]);
  const [chosen, setChosen] = useState<string | null>(null);
  const eventCode = chosen && events.some(([e]) => e === chosen) ? chosen : (events[0]?.[0] ?? null);
  const config = useEventConfig(eventCode);

  if (lines.length === 0) {
    return (
      <main class="page page-narrow" id="main">
        <h1>Your cart</h1>
        <Notice>
          Your cart is empty. Open a photo and choose “Add to cart”. <a href="/">Browse events</a>
        </Notice>
      </main>
    );
  }

  return (
    <main class="page page-narrow" id="main">
      <h1>Your cart</h1>
      {events.length > 1 && (
        <fieldset class="event-switch">
          <legend class="muted">Each event is a separate order. Order photos of:</legend>
          <div class="chips">
            {events.map(([code, name]) => (
              <button
                type="button"
                key={code}
                class="chip"
                aria-pressed={code === eventCode}
                onClick={() => setChosen(code)}
              >
                {name} ({lines.filter((l) => l.event === code).reduce((n, l) => n + l.quantity, 0)})
              </button>
            ))}
          </div>
        </fieldset>
      )}
      {config.error && !config.data && config.error.status === 404 && eventCode && (
        <Notice kind="warn" role="alert">
          <p>The event of these photos is no longer in the gallery, so they cannot be ordered.</p>
          <button
            type="button"
            class="btn btn-secondary"
            onClick={() => cart.update((all) => all.filter((l) => l.event !== eventCode))}
          >
            Remove them from the cart
          </button>
        </Notice>
      )}
      {config.error && !config.data && config.error.status !== 404 && (
        <ErrorBox error={config.error} onRetry={config.reload} />
      )}
      {!config.data && !config.error && <Spinner label="Loading prices…" />}
      {config.data && eventCode && (
        <CheckoutForm
          key={eventCode}
          config={config.data}
          lines={lines.filter((l) => l.event === eventCode)}
          reloadConfig={() => {
            forget(eventConfigUrl(eventCode));
            config.reload();
          }}
        />
      )}
    </main>
  );
}

function CartLines({
  rows,
  printSizes,
}: {
  rows: ReturnType<typeof priceLines>['rows'];
  printSizes: Record<string, [number, number]>;
}) {
  const [cropping, setCropping] = useState<string | null>(null);
  const update = (line: CartLine, patch: Partial<CartLine>) =>
    cart.update((all) => all.map((l) => (sameLine(l, line) ? { ...l, ...patch } : l)));
  const remove = (line: CartLine) => cart.update((all) => all.filter((l) => !sameLine(l, line)));
  return (
    <ul class="cart-lines" aria-label="Photos in this order">
      {rows.map(({ line, unitCents }, i) => (
        <li class="cart-line" key={`${line.number}/${line.size}`}>
          <img
            src={localUrl(line.thumb)}
            alt={`#${line.number}, ${isDigital(line.size) ? 'digital file' : `${line.size} print`}`}
            width={72}
            height={72}
            loading="lazy"
          />
          <div class="cart-line-main">
            <p class="cart-line-title">
              <strong>Photo #{line.number}</strong> <span class="muted">· {sizeLabel(line.size)}</span>
            </p>
            {unitCents === null ? (
              <p class="field-error">The size {line.size} is no longer offered: remove this line.</p>
            ) : (
              <p class="muted small">{money(unitCents)} each</p>
            )}
            <div class="cart-line-controls">
              <QuantityInput
                id={`qty-${i}`}
                label={`Quantity of photo #${line.number} (${line.size})`}
                value={line.quantity}
                onChange={(quantity) => update(line, { quantity })}
              />
              <button
                type="button"
                class="btn btn-icon btn-ghost"
                aria-label={`Remove photo #${line.number} (${line.size})`}
                onClick={() => remove(line)}
              >
                <TrashIcon size={20} />
              </button>
              {printSizes[line.size] && (
                <button
                  type="button"
                  class="btn btn-ghost btn-small"
                  aria-expanded={cropping === lineKey(line)}
                  aria-controls={`crop-${i}`}
                  onClick={() => setCropping(cropping === lineKey(line) ? null : lineKey(line))}
                >
                  {line.crop ? 'Crop: adjusted' : 'Crop: centred'}
                </button>
              )}
            </div>
          </div>
          <p class="cart-line-total">{unitCents === null ? '—' : money(unitCents * line.quantity)}</p>
          {cropping === lineKey(line) && printSizes[line.size] && (
            <div id={`crop-${i}`} class="cart-line-crop">
              <CropChooser
                id={String(i)}
                thumb={localUrl(line.thumb)}
                label={`photo #${line.number}`}
                size={line.size}
                inches={printSizes[line.size] as [number, number]}
                value={line.crop}
                onChange={(crop) =>
                  cart.update((all) =>
                    all.map((l) => {
                      if (!sameLine(l, line)) return l;
                      const { crop: _old, ...rest } = l;
                      return crop ? { ...rest, crop } : rest;
                    }),
                  )
                }
              />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** What the customer reads when a coupon is refused (COUPON_INVALID `details.reason`). */
function couponProblem(err: ApiError, code: string): string {
  const d = err.detailsJson() as { reason?: string; minSubtotal?: string } | undefined;
  switch (d?.reason) {
    case 'unknown':
      return `There is no coupon “${code}”. Please check the spelling.`;
    case 'expired':
      return `The coupon “${code}” has expired.`;
    case 'exhausted':
      return `The coupon “${code}” has been used up.`;
    case 'otherEvent':
      return `The coupon “${code}” is for another event.`;
    case 'belowMinimum':
      return `The coupon “${code}” needs an order of at least ${d.minSubtotal ?? 'a higher amount'}.`;
    default:
      return err.message;
  }
}

function Totals({ quote, fulfilment, stale }: { quote: Quote; fulfilment: Quote['fulfillmentType']; stale: boolean }) {
  const cents = (text: string) => parseMoneyText(text);
  const coupon = quote.coupon;
  const early = quote.earlyBird;
  return (
    <dl aria-busy={stale} class={stale ? 'is-stale' : undefined}>
      <div>
        <dt>Photos</dt>
        <dd>{money(cents(quote.subtotal))}</dd>
      </div>
      {quote.packages.map((p) => (
        <div class="saving" key={p.size}>
          <dt>
            Package {p.count} × {sizeLabel(p.size)} for {money(cents(p.price))}
            {p.sets > 1 ? ` (× ${p.sets})` : ''}
          </dt>
          <dd>−{money(cents(p.saving))}</dd>
        </div>
      ))}
      {early?.applied && (
        <div class="saving">
          <dt>Early bird {early.percent}%</dt>
          <dd>−{money(cents(early.discount))}</dd>
        </div>
      )}
      {coupon?.applied && (
        <div class="saving">
          <dt>Coupon {coupon.code}</dt>
          <dd>−{money(cents(coupon.discount))}</dd>
        </div>
      )}
      {/* Digital files alone are not delivered: no shipping or pickup line at all. */}
      {fulfilment !== 'digital' && (
        <div>
          <dt>{fulfilment === 'ship' ? 'Shipping' : 'Pickup at the booth'}</dt>
          <dd>{money(cents(quote.shippingFee))}</dd>
        </div>
      )}
      <div class="totals-total">
        <dt>Total</dt>
        <dd>{money(cents(quote.total))}</dd>
      </div>
    </dl>
  );
}

function CheckoutForm({
  config,
  lines,
  reloadConfig,
}: {
  config: EventConfig;
  lines: CartLine[];
  reloadConfig: () => void;
}) {
  const saved = useStore(draft);
  const customer = saved.customer;
  const fulfilment = saved.fulfilment;
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The state above re-renders too late to stop a second tap in the same moment; this does.
  const inFlight = useRef(false);
  const captcha = useRef<CaptchaHandle>(null);
  const attempt = useRef<{ key: string; fingerprint: string } | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  const { rows } = priceLines(lines, config);
  const unpriced = rows.some((r) => r.unitCents === null);
  // Digital files alone are not shipped: no delivery choice, no address, no fee (an order "digital").
  const allDigital = lines.every((l) => isDigital(l.size));
  const delivery: Quote['fulfillmentType'] = allDigital ? 'digital' : fulfilment;
  const [couponInput, setCouponInput] = useState('');
  const [coupon, setCoupon] = useState<string | null>(null);
  const [couponError, setCouponError] = useState<string | null>(null);
  const priced = useQuote(
    // A line whose size left the price list is pointed out in the list; nothing to price until it goes.
    unpriced
      ? null
      : {
          eventSlug: config.eventSlug,
          lines: lines.map((l) => ({ photo: l.number, size: l.size, quantity: l.quantity })),
          fulfilment: delivery,
          coupon,
        },
    (err) => {
      setCouponError(couponProblem(err, coupon ?? ''));
      setCoupon(null);
    },
  );
  const quote = priced.quote;
  const applyCoupon = () => {
    const code = couponInput.trim();
    setCouponError(null);
    setCoupon(code === '' ? null : code.toUpperCase());
  };

  useEffect(() => {
    if (failure) alertRef.current?.focus();
  }, [failure]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (inFlight.current) return;
    setFailure(null);
    if (!quote) return;
    const ship = delivery === 'ship';
    const found = customerProblems(customer, { ship, phoneRequired: true });
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setFailure('Please check the highlighted fields.');
      return;
    }
    const body = {
      eventSlug: config.eventSlug,
      customerName: customer.name.trim(),
      customerEmail: customer.email.trim(),
      customerPhone: customer.phone.trim(),
      fulfillmentType: delivery,
      shippingAddress: ship ? customer.street.trim() : '',
      city: ship ? customer.city.trim() : '',
      state: ship ? customer.state.trim().toUpperCase() : '',
      zipCode: ship ? customer.zip.trim() : '',
      // Exactly the figures shown: the server's own for this cart.
      items: quote.items,
      subtotal: quote.subtotal,
      discount: quote.discount,
      shippingFee: quote.shippingFee,
      total: quote.total,
      ...(quote.coupon ? { couponCode: quote.coupon.code } : {}),
      // Where each print is cropped, for the lines whose crop the customer moved.
      ...(rows.some((r) => r.line.crop)
        ? {
            crops: rows.flatMap((r) =>
              r.line.crop ? [{ number: r.line.number, size: r.line.size, x: r.line.crop.x, y: r.line.crop.y }] : [],
            ),
          }
        : {}),
    };
    // The same order sent again (a double tap, a retry after a lost answer) keeps its key.
    const fingerprint = JSON.stringify(body);
    if (attempt.current?.fingerprint !== fingerprint) attempt.current = { key: uuid(), fingerprint };
    const key = attempt.current.key;

    inFlight.current = true;
    setBusy(true);
    try {
      const captchaToken = await captcha.current?.token();
      let order: Order | undefined;
      for (let tries = 0; !order; tries++) {
        try {
          order = await ok(
            api.POST('/api/orders', {
              body: captchaToken ? { ...body, captchaToken } : body,
              headers: { 'Idempotency-Key': key },
            }),
          );
        } catch (err) {
          // The first request with this key is still running (a double tap): wait for its answer.
          if (err instanceof ApiError && err.code === 'IDEMPOTENCY_IN_PROGRESS' && tries < 10) {
            await new Promise((r) => setTimeout(r, (err.retryAfter ?? 1) * 1000));
            continue;
          }
          throw err;
        }
      }
      placedOrders.update((all) => ({
        ...all,
        [order.orderNumber]: {
          orderNumber: order.orderNumber,
          event: config.eventSlug,
          eventName: config.eventName,
          email: order.customerEmail,
          total: order.total,
          items: order.items,
          fulfillmentType: order.fulfillmentType,
          verificationRequired: order.verificationRequired,
          createdAt: order.createdAt,
        },
      }));
      cart.update((all) => all.filter((l) => l.event !== config.eventSlug));
      attempt.current = null;
      // Online payment: straight to the payment page, which comes back to the order page.
      if (order.paymentUrl) window.location.assign(order.paymentUrl);
      else navigate(`/order/${encodeURIComponent(order.orderNumber)}`);
    } catch (err) {
      handleError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  function handleError(err: unknown) {
    if (!(err instanceof ApiError)) {
      // The CAPTCHA could not be solved or loaded.
      setFailure((err as Error).message);
      return;
    }
    // The server checks the coupon, the prices it sets and the address only after the CAPTCHA
    // (docs/contract.md, "Orders"): a refusal there spent the token, so the next try needs a new one.
    if (SPENT_CAPTCHA.has(err.code)) captcha.current?.reset();
    switch (err.code) {
      case 'VALIDATION_FAILED':
      case 'ADDRESS_INVALID': {
        const byField: Problems = {};
        for (const [field, message] of Object.entries(err.fieldErrors())) {
          const mine = FIELD_OF[field];
          if (mine) byField[mine] = message.charAt(0).toUpperCase() + message.slice(1);
        }
        setProblems(byField);
        setFailure(
          err.code === 'ADDRESS_INVALID'
            ? `${err.message}. Please check the address.`
            : Object.keys(byField).length > 0
              ? 'Please check the highlighted fields.'
              : err.message,
        );
        return;
      }
      case 'PRICE_MISMATCH':
        reloadConfig();
        priced.reload();
        setFailure('The prices of this event have just changed. Please check the new total and place the order again.');
        return;
      case 'COUPON_INVALID':
        setCouponError(couponProblem(err, coupon ?? ''));
        setCoupon(null);
        setFailure('The coupon can no longer be used. Please check the new total and place the order again.');
        return;
      case 'CAPTCHA_FAILED':
      case 'CAPTCHA_REQUIRED':
        captcha.current?.reset();
        setFailure('The anti-spam check expired. Please place the order again.');
        return;
      case 'RATE_LIMITED':
        setFailure(`Too many attempts from this network. Please wait ${err.retryAfter ?? 60} seconds and try again.`);
        return;
      case 'ORDERING_CLOSED':
        reloadConfig();
        setFailure(err.message);
        return;
      case 'UNKNOWN_PHOTO':
        setFailure(`${err.message}. Please remove it from your cart.`);
        return;
      default:
        setFailure(
          err.status === 0 || err.status >= 500
            ? `${err.message} Your order was not confirmed; pressing “Place order” again is safe — it will never be placed twice.`
            : err.message,
        );
    }
  }

  const shippingLabel = `+ ${money(dollarsToCents(config.shippingFee))}`;

  return (
    <>
      <p class="muted">
        Photos from <a href={eventPath(config.eventSlug)}>{config.eventName}</a>
      </p>
      <CartLines rows={rows} printSizes={config.printSizes ?? {}} />
      {!config.active && (
        <Notice kind="warn" role="alert">
          <strong>Ordering is closed.</strong> {closedMessage(config)}
        </Notice>
      )}
      <form class="checkout" noValidate onSubmit={submit} aria-busy={busy}>
        <CustomerForm
          value={customer}
          onChange={(c) => draft.set({ customer: c, fulfilment })}
          fulfilment={fulfilment}
          onFulfilment={(f) => draft.set({ customer, fulfilment: f })}
          problems={problems}
          shippingLabel={shippingLabel}
          phoneRequired
          delivery={!allDigital}
        />
        {allDigital && (
          <p class="muted small">Digital files need no delivery: the download links come once the order is paid.</p>
        )}
        <section class="totals" aria-label="Order total">
          <div class="coupon">
            <label for="coupon-code">Coupon code</label>
            <div class="coupon-row">
              <input
                id="coupon-code"
                name="couponCode"
                value={couponInput}
                maxLength={64}
                autoComplete="off"
                autoCapitalize="characters"
                aria-invalid={couponError ? true : undefined}
                aria-describedby={couponError ? 'coupon-error' : undefined}
                onInput={(e) => setCouponInput((e.target as HTMLInputElement).value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    applyCoupon();
                  }
                }}
              />
              <button type="button" class="btn btn-secondary" onClick={applyCoupon}>
                Apply
              </button>
            </div>
            {couponError && (
              <p id="coupon-error" class="field-error" role="alert">
                {couponError}
              </p>
            )}
            {quote?.coupon && !quote.coupon.applied && (
              <p class="muted small" role="status">
                Coupon {quote.coupon.code} is valid, but the early-bird discount is larger, so that one applies.
              </p>
            )}
          </div>
          {unpriced ? null : priced.shown ? (
            <Totals quote={priced.shown} fulfilment={delivery} stale={!quote} />
          ) : priced.error ? (
            <ErrorBox error={priced.error} onRetry={priced.reload} />
          ) : (
            <Spinner label="Working out your total…" />
          )}
          <p class="muted small">Nothing is charged online: the photographer confirms payment with you.</p>
        </section>
        {config.active && <Captcha handle={captcha} />}
        {failure && (
          <div class="notice notice-error" role="alert" tabIndex={-1} ref={alertRef}>
            {failure}
          </div>
        )}
        <button type="submit" class="btn btn-primary btn-block" disabled={busy || !config.active || unpriced || !quote}>
          {busy ? 'Placing your order…' : quote ? `Place order · ${money(parseMoneyText(quote.total))}` : 'Place order'}
        </button>
      </form>
    </>
  );
}
