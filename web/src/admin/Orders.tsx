/**
 * The three order lists (pending, completed, cancelled) with search and an event filter. The
 * list refreshes every 30 s while the tab is visible; the server answers 304 while nothing
 * changed (ETag), so polling costs next to nothing.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { adminApi, asFile } from '../lib/api.js';
import type { Order, SalesSummary } from '../lib/api-schema.js';
import { formatDateTime } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';
import { type AdminMe, may, useAdminMe } from './role.js';
import { adminToken, onAdminError } from './session.js';
import { downloadFile, itemLines, StatusBadges } from './shared.js';

const LISTS = [
  { key: 'pending', label: 'Pending', count: (s: SalesSummary) => s.pendingCount },
  { key: 'completed', label: 'Paid', count: (s: SalesSummary) => s.completedCount },
  { key: 'cancelled', label: 'Cancelled', count: (s: SalesSummary) => s.cancelledCount },
] as const;
type ListKey = (typeof LISTS)[number]['key'];

const SHOWN = 100;
const POLL_MS = 30_000;

function matches(o: Order, q: string): boolean {
  if (!q) return true;
  const needle = q.toLowerCase().replace(/^#/, '');
  return (
    [o.orderNumber, o.customerName, o.customerEmail, o.customerPhone, o.trackingNumber, o.city, o.zipCode].some((f) =>
      f.toLowerCase().includes(needle),
    ) || itemLines(o.items).some((l) => l.number.toLowerCase() === needle)
  );
}

export default function Orders({ query }: { query: URLSearchParams }) {
  useTitle('Orders');
  const list = (LISTS.find((l) => l.key === query.get('list'))?.key ?? 'pending') as ListKey;
  const event = query.get('event') ?? '';
  const q = query.get('q') ?? '';
  const [search, setSearch] = useState(q);
  const [limit, setLimit] = useState(SHOWN);
  const filter = { query: event ? { eventSlug: event } : {} };
  const orders = useApi(`/api/orders/${list}`, filter, { admin: true, keep: true });
  const summary = useApi('/api/orders/summary', filter, { admin: true, keep: true });
  const events = useApi('/api/proxy-events');
  const me = useAdminMe(useStore(adminToken));

  useEffect(() => {
    if (orders.error) onAdminError(orders.error);
  }, [orders.error]);

  // Refresh while visible.
  useEffect(() => {
    const t = setInterval(() => {
      if (document.visibilityState === 'visible') {
        orders.reload();
        summary.reload();
      }
    }, POLL_MS);
    return () => clearInterval(t);
  }, [orders.reload, summary.reload]);

  const setQuery = (patch: Record<string, string>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    const s = next.toString();
    navigate(`/admin${s ? `?${s}` : ''}`, { replace: true, keepScroll: true });
  };

  // Typing filters at once; the URL follows shortly after (so "back" keeps the search).
  useEffect(() => {
    const t = setTimeout(() => search !== q && setQuery({ q: search }), 400);
    return () => clearTimeout(t);
  }, [search]);

  const shown = useMemo(() => (orders.data ?? []).filter((o) => matches(o, search.trim())), [orders.data, search]);

  return (
    <>
      <div class="admin-head">
        <h1>Orders</h1>
        <button
          type="button"
          class="btn btn-secondary btn-small"
          onClick={() => {
            orders.reload();
            summary.reload();
          }}
        >
          {orders.loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <fieldset class="list-tabs">
        <legend class="sr-only">Order list</legend>
        {LISTS.map((l) => (
          <button
            type="button"
            key={l.key}
            class="list-tab"
            aria-pressed={l.key === list}
            onClick={() => {
              setLimit(SHOWN);
              setQuery({ list: l.key === 'pending' ? '' : l.key });
            }}
          >
            {l.label}
            {summary.data && <span class="list-count">{l.count(summary.data)}</span>}
          </button>
        ))}
      </fieldset>
      <div class="filters">
        <div class="field">
          <label for="order-search">Search</label>
          <input
            id="order-search"
            type="search"
            placeholder="Order #, name, email, photo #"
            value={search}
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="order-event">Event</label>
          <select
            id="order-event"
            value={event}
            onChange={(e) => setQuery({ event: (e.target as HTMLSelectElement).value })}
          >
            <option value="">All events</option>
            {(events.data ?? []).map((ev) => (
              <option key={ev.eventSlug} value={ev.eventSlug}>
                {ev.eventName}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PrintAndExport
        event={event}
        eventName={events.data?.find((e) => e.eventSlug === event)?.eventName ?? event}
        me={me}
      />
      {orders.error && !orders.data && <ErrorBox error={orders.error} onRetry={orders.reload} />}
      {!orders.data && !orders.error && <Spinner label="Loading orders…" />}
      {orders.data && shown.length === 0 && (
        <Notice>
          {search ? `No ${list} orders match “${search}”.` : `No ${list} orders${event ? ' for this event' : ''}.`}
        </Notice>
      )}
      {shown.length > 0 && (
        <ul class="order-list" aria-label={`${list} orders`}>
          {shown.slice(0, limit).map((o) => {
            const prints = itemLines(o.items).reduce((n, l) => n + l.quantity, 0);
            return (
              <li key={o.id}>
                <a class="order-row" href={`/admin/orders/${encodeURIComponent(o.orderNumber)}`}>
                  <span class="order-row-number">{o.orderNumber}</span>
                  <span class="order-row-name">{o.customerName}</span>
                  <span class="order-row-meta muted">
                    {formatDateTime(o.createdAt)} · {prints} {prints === 1 ? 'print' : 'prints'}
                  </span>
                  <span class="order-row-total">{o.total}</span>
                  <span class="order-row-badges">
                    <StatusBadges order={o} />
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {shown.length > limit && (
        <p class="more">
          <button type="button" class="btn btn-secondary" onClick={() => setLimit(limit + SHOWN)}>
            Show more ({shown.length - limit} left)
          </button>
        </p>
      )}
    </>
  );
}

/**
 * Batch labels of the chosen event's paid orders waiting to ship, and the CSV for the books; each
 * shown only to a role that may use it (labels: staff; the CSV: the owner).
 */
function PrintAndExport({ event, eventName, me }: { event: string; eventName: string; me: AdminMe | null }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const get = async (
    file: () => Promise<{ response: Response }>,
    fallback: string,
    done: (res: Response) => string,
  ) => {
    setBusy(true);
    setError('');
    try {
      showToast(done(await downloadFile(file(), fallback)));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const labels = (options: { slips?: string; format?: 'docx' }, fallback: string) =>
    get(
      () => adminApi.GET('/api/labels/batch', { params: { query: { eventSlug: event, ...options } }, ...asFile }),
      fallback,
      (res) => {
        const n = res.headers.get('x-label-count') ?? '';
        return `${n} ${n === '1' ? 'label' : 'labels'} for ${eventName}`;
      },
    );
  const mayLabels = may(me, 'GET /api/labels/batch');
  const mayExport = may(me, 'GET /api/orders/export.csv');
  if (!mayLabels && !mayExport) return null;
  return (
    <details class="card print-export">
      <summary class="print-export-title">Labels and export</summary>
      <div class="fulfil-tools">
        {!mayLabels ? null : event ? (
          <>
            <button
              type="button"
              class="btn btn-secondary btn-small"
              disabled={busy}
              onClick={() => labels({}, 'labels.pdf')}
            >
              Labels to ship (PDF)
            </button>
            <button
              type="button"
              class="btn btn-secondary btn-small"
              disabled={busy}
              onClick={() => labels({ slips: 'true' }, 'labels-and-slips.pdf')}
            >
              Labels with packing slips (PDF)
            </button>
            <button
              type="button"
              class="btn btn-secondary btn-small"
              disabled={busy}
              onClick={() => labels({ format: 'docx' }, 'labels.docx')}
            >
              Labels (DOCX)
            </button>
          </>
        ) : (
          <p class="muted small">Choose an event for the labels of its paid orders waiting to ship.</p>
        )}
        {mayExport && (
          <button
            type="button"
            class="btn btn-secondary btn-small"
            disabled={busy}
            onClick={() =>
              get(
                () =>
                  adminApi.GET('/api/orders/export.csv', {
                    params: { query: event ? { eventSlug: event } : {} },
                    ...asFile,
                  }),
                'orders.csv',
                () => `Orders of ${event ? eventName : 'every event'} exported`,
              )
            }
          >
            Export CSV
          </button>
        )}
      </div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
