/**
 * Coupons (`/api/coupons`): create one, see every coupon with how many orders use it, delete
 * one. A use is counted when an order is placed and given back when it is voided or cancelled.
 */
import { useState } from 'preact/hooks';
import { ConfirmButton, ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { ApiError, adminApi, ok } from '../lib/api.js';
import type { ActiveEventList, Coupon, CouponCreate } from '../lib/api-schema.js';
import { formatDate } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import { showToast } from '../lib/toast.js';

type ActiveEvent = ActiveEventList[number];
type CouponKind = Coupon['kind'];

import { onAdminError } from './session.js';

const CODE = /^[A-Za-z0-9_-]{3,32}$/;
const AMOUNT = /^\d{1,6}(\.\d{1,2})?$/;

function couponValue(c: Pick<Coupon, 'kind' | 'value'>): string {
  if (c.kind === 'freeShipping') return 'free shipping';
  if (c.kind === 'percent') return `${c.value}% off`;
  return `$${(c.value ?? 0).toFixed(2)} off`;
}

export default function Coupons() {
  useTitle('Coupons');
  const list = useApi('/api/coupons', {}, { admin: true });
  const events = useApi('/api/proxy-events');
  const eventName = (slug: string | null) =>
    slug === null ? 'all events' : (events.data?.find((e) => e.eventSlug === slug)?.eventName ?? slug);

  const remove = async (code: string) => {
    try {
      await adminApi.DELETE('/api/coupons/{code}', { params: { path: { code } } });
      showToast(`Coupon ${code} deleted`);
      list.reload();
    } catch (err) {
      showToast(onAdminError(err).message, { kind: 'error' });
    }
  };

  return (
    <>
      <h1>Coupons</h1>
      <p class="muted">
        Codes customers type at checkout. A coupon never adds up with the early bird: the larger discount applies.
      </p>
      <CouponForm events={events.data ?? []} onCreated={list.reload} />
      <section class="section" aria-labelledby="coupon-list-title">
        <h2 id="coupon-list-title">All coupons</h2>
        {list.error && <ErrorBox error={list.error} onRetry={list.reload} />}
        {!list.data && !list.error && <Spinner />}
        {list.data?.coupons.length === 0 && <Notice>No coupons yet.</Notice>}
        {list.data && list.data.coupons.length > 0 && (
          <div class="table-scroll">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Event</th>
                  <th scope="col">Used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.coupons.map((c) => (
                  <tr key={c.code} data-coupon={c.code}>
                    <th scope="row">
                      <code>{c.code}</code>
                    </th>
                    <td>
                      {couponValue(c)}
                      {c.minSubtotal > 0 ? ` (orders from $${c.minSubtotal.toFixed(2)})` : ''}
                    </td>
                    <td>{eventName(c.eventSlug)}</td>
                    <td data-testid="coupon-uses">{c.maxUses === null ? `${c.uses}` : `${c.uses} of ${c.maxUses}`}</td>
                    <td>{c.expiresAt ? formatDate(c.expiresAt) : 'never'}</td>
                    <td>
                      <ConfirmButton
                        class="btn btn-ghost btn-small"
                        confirmLabel={`Delete ${c.code}?`}
                        onConfirm={() => void remove(c.code)}
                      >
                        Delete
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function CouponForm({ events, onCreated }: { events: ActiveEvent[]; onCreated: () => void }) {
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<CouponKind>('percent');
  const [value, setValue] = useState('');
  const [eventSlug, setEventSlug] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [expires, setExpires] = useState('');
  const [minimum, setMinimum] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setProblem('');
    const trimmed = code.trim();
    if (!CODE.test(trimmed)) return setProblem('The code is 3 to 32 letters, digits, - or _.');
    const body: CouponCreate = { code: trimmed, kind };
    if (kind !== 'freeShipping') {
      if (kind === 'percent' && !/^\d{1,3}$/.test(value.trim())) return setProblem('The percent is a whole number.');
      if (kind === 'amount' && !AMOUNT.test(value.trim()))
        return setProblem('The amount is in dollars, like 5 or 2.50.');
      body.value = Number(value);
    }
    if (eventSlug) body.eventSlug = eventSlug;
    if (maxUses.trim()) {
      if (!/^\d+$/.test(maxUses.trim()) || Number(maxUses) < 1) return setProblem('Uses is a whole number from 1.');
      body.maxUses = Number(maxUses);
    }
    if (expires) body.expiresAt = new Date(expires).toISOString();
    if (minimum.trim()) {
      if (!AMOUNT.test(minimum.trim())) return setProblem('The minimum order is in dollars, like 20.');
      body.minSubtotal = Number(minimum);
    }
    setBusy(true);
    try {
      const made = await ok(adminApi.POST('/api/coupons', { body }));
      showToast(`Coupon ${made.code} created`);
      setCode('');
      setValue('');
      setMaxUses('');
      setExpires('');
      setMinimum('');
      onCreated();
    } catch (err) {
      const e2 = onAdminError(err);
      setProblem(
        e2 instanceof ApiError && e2.code === 'COUPON_EXISTS'
          ? `There is a coupon ${trimmed.toUpperCase()} already.`
          : e2.message,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card coupon-form" onSubmit={submit} noValidate aria-labelledby="coupon-form-title">
      <h2 id="coupon-form-title">New coupon</h2>
      <div class="coupon-fields">
        <label>
          Code
          <input value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value)} autoComplete="off" />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as CouponKind)}>
            <option value="percent">Percent off</option>
            <option value="amount">Amount off</option>
            <option value="freeShipping">Free shipping</option>
          </select>
        </label>
        {kind !== 'freeShipping' && (
          <label>
            {kind === 'percent' ? 'Percent' : 'Dollars off'}
            <input inputMode="decimal" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
          </label>
        )}
        <label>
          Event
          <select value={eventSlug} onChange={(e) => setEventSlug((e.target as HTMLSelectElement).value)}>
            <option value="">All events</option>
            {events.map((ev) => (
              <option key={ev.eventSlug} value={ev.eventSlug}>
                {ev.eventName}
              </option>
            ))}
          </select>
        </label>
        <label>
          Uses (empty: no limit)
          <input
            inputMode="numeric"
            value={maxUses}
            onInput={(e) => setMaxUses((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Expires (your local time)
          <input
            type="datetime-local"
            value={expires}
            onInput={(e) => setExpires((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Minimum order ($)
          <input
            inputMode="decimal"
            value={minimum}
            onInput={(e) => setMinimum((e.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create coupon'}
      </button>
    </form>
  );
}
