/**
 * The sales summary (`GET /api/orders/summary`) and two charts drawn from the paid orders
 * (`GET /api/orders/completed`): revenue by day (order date, the last 31 days that had
 * sales) and by event. Plain SVG and CSS, no chart library; each chart has its table.
 */
import { useMemo, useState } from 'preact/hooks';
import { ErrorBox, Spinner, useTitle } from '../components/common.js';
import { money, parseMoneyText } from '../lib/format.js';
import { useFetch } from '../lib/hooks.js';
import type { ActiveEvent, Order, SalesSummary } from '../lib/types.js';

type Bar = { key: string; label: string; cents: number; orders: number };

function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function group(orders: Order[], keyOf: (o: Order) => string, labelOf: (k: string) => string): Bar[] {
  const m = new Map<string, Bar>();
  for (const o of orders) {
    const key = keyOf(o);
    const cents = parseMoneyText(o.total);
    const bar = m.get(key) ?? { key, label: labelOf(key), cents: 0, orders: 0 };
    bar.cents += Number.isNaN(cents) ? 0 : cents;
    bar.orders += 1;
    m.set(key, bar);
  }
  return [...m.values()];
}

export default function Sales() {
  useTitle('Sales');
  const [event, setEvent] = useState('');
  const filter = event ? `?eventSlug=${encodeURIComponent(event)}` : '';
  const summary = useFetch<SalesSummary>(`/api/orders/summary${filter}`, { admin: true, keep: true });
  const paid = useFetch<Order[]>(`/api/orders/completed${filter}`, { admin: true, keep: true });
  const events = useFetch<ActiveEvent[]>('/api/proxy-events');
  const names = useMemo(() => new Map((events.data ?? []).map((e) => [e.eventSlug, e.eventName])), [events.data]);

  const byDay = useMemo(() => {
    const bars = group(
      paid.data ?? [],
      (o) => localDay(o.createdAt),
      (k) => new Date(`${k}T12:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
    );
    return bars.sort((a, b) => (a.key < b.key ? -1 : 1)).slice(-31);
  }, [paid.data]);
  const byEvent = useMemo(
    () =>
      group(
        paid.data ?? [],
        (o) => o.eventSlug,
        (k) => names.get(k) ?? k,
      ).sort((a, b) => b.cents - a.cents),
    [paid.data, names],
  );

  const s = summary.data;
  return (
    <>
      <div class="admin-head">
        <h1>Sales</h1>
        <div class="field field-inline">
          <label for="sales-event">Event</label>
          <select id="sales-event" value={event} onChange={(e) => setEvent((e.target as HTMLSelectElement).value)}>
            <option value="">All events</option>
            {(events.data ?? []).map((ev) => (
              <option key={ev.eventSlug} value={ev.eventSlug}>
                {ev.eventName}
              </option>
            ))}
          </select>
        </div>
      </div>
      {summary.error && <ErrorBox error={summary.error} onRetry={summary.reload} />}
      {!s && !summary.error && <Spinner />}
      {s && (
        <dl class="stats">
          <div class="stat">
            <dt>Revenue (paid)</dt>
            <dd>{money(Math.round(s.totalRevenue * 100))}</dd>
          </div>
          <div class="stat">
            <dt>Waiting for payment</dt>
            <dd>{money(Math.round(s.pendingRevenue * 100))}</dd>
          </div>
          <div class="stat">
            <dt>Average paid order</dt>
            <dd>{money(Math.round(s.averageOrderValue * 100))}</dd>
          </div>
          <div class="stat">
            <dt>Orders</dt>
            <dd>
              {s.totalOrders}
              <span class="stat-sub">
                {s.pendingCount} pending · {s.completedCount} paid · {s.cancelledCount} cancelled
              </span>
            </dd>
          </div>
        </dl>
      )}
      {paid.error && <ErrorBox error={paid.error} onRetry={paid.reload} />}
      {paid.data && (
        <div class="charts">
          <section class="card" aria-labelledby="by-day-title">
            <h2 id="by-day-title">Revenue by day</h2>
            <p class="muted small">Paid orders, by the day they were placed.</p>
            {byDay.length === 0 ? <p>No paid orders yet.</p> : <ColumnChart bars={byDay} title="Revenue by day" />}
          </section>
          <section class="card" aria-labelledby="by-event-title">
            <h2 id="by-event-title">Revenue by event</h2>
            {byEvent.length === 0 ? <p>No paid orders yet.</p> : <BarList bars={byEvent} />}
          </section>
        </div>
      )}
    </>
  );
}

function DataTable({ bars, caption }: { bars: Bar[]; caption: string }) {
  return (
    <details class="chart-table">
      <summary class="chart-table-toggle">Show as a table</summary>
      <table class="table">
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{caption.includes('day') ? 'Day' : 'Event'}</th>
            <th scope="col" class="num">
              Orders
            </th>
            <th scope="col" class="num">
              Revenue
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.key}>
              <td>{b.label}</td>
              <td class="num">{b.orders}</td>
              <td class="num">{money(b.cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Columns in HTML, so the labels keep a legible size on a phone. */
function ColumnChart({ bars, title }: { bars: Bar[]; title: string }) {
  const max = Math.max(...bars.map((b) => b.cents), 1);
  const every = Math.ceil(bars.length / 7); // at most ~7 date labels
  return (
    <>
      <figure class="columns" aria-label={`${title} (the table below has the figures)`}>
        {bars.map((b, i) => (
          <div class="column" key={b.key} title={`${b.label}: ${money(b.cents)} (${b.orders} orders)`}>
            {bars.length <= 10 && <span class="column-value">{money(b.cents).replace(/\.00$/, '')}</span>}
            <div class="column-bar" style={{ height: `${Math.max(1, (100 * b.cents) / max)}%` }} />
            <span class="column-label">{i % every === 0 ? b.label : ''}</span>
          </div>
        ))}
      </figure>
      <DataTable bars={bars} caption={title} />
    </>
  );
}

/** Horizontal bars in HTML: long event names wrap instead of overflowing. */
function BarList({ bars }: { bars: Bar[] }) {
  const max = Math.max(...bars.map((b) => b.cents), 1);
  return (
    <>
      <ul class="bar-list">
        {bars.map((b) => (
          <li key={b.key} class="bar-item">
            <div class="bar-list-head">
              <span>{b.label}</span>
              <strong>{money(b.cents)}</strong>
            </div>
            <div class="bar-track" aria-hidden="true">
              <div class="bar-fill" style={{ width: `${Math.max(2, (100 * b.cents) / max)}%` }} />
            </div>
          </li>
        ))}
      </ul>
      <DataTable bars={bars} caption="Revenue by event" />
    </>
  );
}
