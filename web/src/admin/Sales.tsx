/**
 * The sales summary (`GET /api/orders/summary`) and two charts of the paid orders from
 * `GET /api/orders/summary/breakdown`: revenue by day (the order date in this browser's time
 * zone, the last 31 days that had sales) and by event. The server groups them, so the
 * dashboard no longer downloads every paid order. Plain HTML and CSS, no chart library; each
 * chart has its table.
 */
import { useMemo, useState } from 'preact/hooks';
import { ErrorBox, Spinner, useTitle } from '../components/common.js';
import { dollarsToCents, money } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';

type Bar = { key: string; label: string; cents: number; orders: number };

/** The browser's IANA time zone, so "a day" is the photographer's day; UTC if unknown. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export default function Sales() {
  useTitle('Sales');
  const [event, setEvent] = useState('');
  const summary = useApi(
    '/api/orders/summary',
    { query: event ? { eventSlug: event } : {} },
    { admin: true, keep: true },
  );
  const zone = useMemo(browserTimeZone, []);
  const breakdown = useApi(
    '/api/orders/summary/breakdown',
    { query: { timeZone: zone, ...(event ? { eventSlug: event } : {}) } },
    { admin: true, keep: true },
  );
  const events = useApi('/api/proxy-events');
  const names = useMemo(() => new Map((events.data ?? []).map((e) => [e.eventSlug, e.eventName])), [events.data]);

  const byDay: Bar[] = useMemo(
    () =>
      (breakdown.data?.byDay ?? []).slice(-31).map((d) => ({
        key: d.date,
        label: new Date(`${d.date}T12:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
        cents: dollarsToCents(d.revenue),
        orders: d.orders,
      })),
    [breakdown.data],
  );
  const byEvent: Bar[] = useMemo(
    () =>
      (breakdown.data?.byEvent ?? []).map((e) => ({
        key: e.eventSlug,
        label: e.eventName ?? names.get(e.eventSlug) ?? e.eventSlug,
        cents: dollarsToCents(e.revenue),
        orders: e.orders,
      })),
    [breakdown.data, names],
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
            <dt>Discounts given (paid)</dt>
            <dd>{money(Math.round(s.totalDiscounts * 100))}</dd>
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
      {breakdown.error && <ErrorBox error={breakdown.error} onRetry={breakdown.reload} />}
      {breakdown.data && (
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
