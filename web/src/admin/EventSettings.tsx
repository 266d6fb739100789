/**
 * Per event: ordering on/off, archived, the ordering deadline, prices, the shipping fee,
 * packages, the early bird and Find me by face (`PUT /api/event-config`). Changes apply at once
 * in the gallery and the checkout.
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { TrashIcon } from '../components/icons.js';
import { ApiError, adminApi, ok } from '../lib/api.js';
import type { EventConfig, EventConfigUpdate, GalleryEvent } from '../lib/api-schema.js';
import { formatDate } from '../lib/format.js';
import { closedMessage, eventConfigUrl, forget, useApi, useEventConfig } from '../lib/hooks.js';
import { eventPath } from '../lib/router.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';
import { CodeCardsPanel } from './CodeCards.js';
import { FaceSearchProgress, FaceSearchSwitch } from './FaceSearch.js';
import { IntakePanel } from './Intake.js';
import {
  type EarlyBirdFields,
  earlyBirdFields,
  OffersFields,
  offersChange,
  type PackageRow,
  packageRows,
  toLocalInput,
} from './OffersFields.js';
import { may, useAdminMe } from './role.js';
import { adminToken, onAdminError } from './session.js';

export default function EventSettings() {
  useTitle('Events');
  const events = useApi('/api/proxy-events');
  // Why a closed event is closed (the public listing says): a folder just copied in, not
  // published yet, is told apart from an event the photographer closed or archived.
  const gallery = useApi('/event');
  const closedReason = (slug: string) => gallery.data?.find((g) => g.code === slug)?.status.closedReason ?? null;
  const me = useAdminMe(useStore(adminToken));
  const settings = may(me, 'PUT /api/event-config');
  return (
    <>
      <h1>Events</h1>
      <p class="muted">
        {settings
          ? 'Open or close ordering, set the deadline, the prices, packages and the early bird. Changes apply at once.'
          : 'Photos arriving, and the events. Only the owner changes event settings.'}
      </p>
      <IntakePanel />
      {may(me, 'GET /api/finder/cards.pdf') && <CodeCardsPanel />}
      {events.error && <ErrorBox error={events.error} onRetry={events.reload} />}
      {!events.data && !events.error && <Spinner />}
      {events.data?.length === 0 && <Notice>No events in the photo library yet.</Notice>}
      <div class="event-settings">
        {events.data?.map((ev) => (
          <details class="card event-setting" key={ev.eventSlug} data-event={ev.eventSlug}>
            <summary>
              <span class="event-setting-name">{ev.eventName}</span>
              <EventBadge active={ev.active} reason={closedReason(ev.eventSlug)} />
            </summary>
            {settings ? (
              <EventForm
                slug={ev.eventSlug}
                onSaved={() => {
                  events.reload();
                  gallery.reload();
                }}
              />
            ) : (
              <p class="muted small">
                <a href={eventPath(ev.eventSlug)}>View gallery</a>
              </p>
            )}
          </details>
        ))}
      </div>
    </>
  );
}

function EventBadge({ active, reason }: { active: boolean; reason: GalleryEvent['status']['closedReason'] }) {
  if (active) return <span class="badge badge-ok">open</span>;
  if (reason === 'disabled') return <span class="badge badge-warn">not on sale</span>;
  if (reason === 'deadline') return <span class="badge badge-muted">deadline passed</span>;
  if (reason === 'archived') return <span class="badge badge-muted">archived</span>;
  return <span class="badge badge-muted">closed</span>;
}

type PriceRow = { id: number; size: string; price: string };
let rowSeq = 0;

const SIZE = /^[\p{L}\p{N}](?:[\p{L}\p{N} ×./"'-]{0,30}[\p{L}\p{N}×./"'-])?$/u;
const AMOUNT = /^\d{1,6}(\.\d{1,2})?$/;

function EventForm({ slug, onSaved }: { slug: string; onSaved: () => void }) {
  const loaded = useEventConfig(slug);
  const [config, setConfig] = useState<EventConfig | undefined>();
  const [enabled, setEnabled] = useState(true);
  const [archived, setArchived] = useState(false);
  const [autoPrint, setAutoPrint] = useState(false);
  const [deadline, setDeadline] = useState('');
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [fee, setFee] = useState('');
  const [packages, setPackages] = useState<PackageRow[]>([]);
  const [early, setEarly] = useState<EarlyBirdFields>({ percent: '', until: '' });
  const [faceSearch, setFaceSearch] = useState(false);
  const [showRejected, setShowRejected] = useState(false);
  const [minRating, setMinRating] = useState(0);
  const [featuredRating, setFeaturedRating] = useState(4);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const adopt = (c: EventConfig) => {
    setConfig(c);
    setEnabled(c.orderingEnabled);
    setArchived(c.isArchived);
    setAutoPrint(c.autoPrint === 'pickup');
    setDeadline(toLocalInput(c.deadline));
    setRows(Object.entries(c.prices).map(([size, price]) => ({ id: ++rowSeq, size, price: price.toFixed(2) })));
    setFee(c.shippingFee.toFixed(2));
    setPackages(packageRows(c));
    setEarly(earlyBirdFields(c));
    setFaceSearch(c.faceSearch);
    setShowRejected(c.showRejected);
    setMinRating(c.minRating);
    setFeaturedRating(c.featuredRating);
  };
  useEffect(() => {
    if (loaded.data && !config) adopt(loaded.data);
  }, [loaded.data]);

  if (loaded.error && !config) return <ErrorBox error={loaded.error} onRetry={loaded.reload} />;
  if (!config) return <Spinner />;

  const save = async (e: Event, publish = false) => {
    e.preventDefault();
    setProblem('');
    const prices: Record<string, number> = {};
    for (const r of rows) {
      const size = r.size.trim();
      if (!SIZE.test(size)) return setProblem(`“${size || '(empty)'}” is not a valid size name.`);
      if (!AMOUNT.test(r.price.trim())) return setProblem(`The price of ${size} must be an amount such as 5 or 12.50.`);
      if (size in prices) return setProblem(`The size ${size} is listed twice.`);
      prices[size] = Number(r.price);
    }
    if (rows.length === 0) return setProblem('Keep at least one size.');
    if (!AMOUNT.test(fee.trim())) return setProblem('The shipping fee must be an amount such as 5 or 4.50.');
    const when = deadline ? new Date(deadline) : null;
    if (when && Number.isNaN(when.getTime())) return setProblem('The deadline is not a valid date and time.');

    const body: EventConfigUpdate = { eventSlug: slug };
    const wantEnabled = publish || enabled;
    if (wantEnabled !== config.orderingEnabled) body.orderingEnabled = wantEnabled;
    if (archived !== config.isArchived) body.isArchived = archived;
    if (autoPrint !== (config.autoPrint === 'pickup')) body.autoPrint = autoPrint ? 'pickup' : 'off';
    if (faceSearch !== config.faceSearch) body.faceSearch = faceSearch;
    const newDeadline = when ? when.toISOString() : null;
    if (toLocalInput(newDeadline) !== toLocalInput(config.deadline)) body.deadline = newDeadline;
    const samePrices =
      Object.keys(prices).length === Object.keys(config.prices).length &&
      Object.entries(prices).every(([s, p]) => config.prices[s] === p);
    // Publishing stores the price list shown, so the event sells at what the admin saw.
    if (!samePrices || publish) body.prices = prices;
    if (Number(fee) !== config.shippingFee) body.shippingFee = Number(fee);
    // The photographer's ratings (docs/contract.md, "The photographer's metadata").
    if (showRejected !== config.showRejected) body.showRejected = showRejected;
    if (minRating !== config.minRating) body.minRating = minRating;
    if (featuredRating !== config.featuredRating) body.featuredRating = featuredRating;
    const offers = offersChange(config, packages, early);
    if ('problem' in offers) return setProblem(offers.problem);
    Object.assign(body, offers.body);
    if (Object.keys(body).length === 1) {
      showToast('Nothing to save: no setting was changed');
      return;
    }
    setBusy(true);
    try {
      // The answer is the EventConfig the document declares (openapi-fetch's result type widens
      // `printSizes`' [width, height] pairs to arrays).
      const updated = (await ok(adminApi.PUT('/api/event-config', { body }))) as EventConfig;
      forget(eventConfigUrl(slug));
      forget(eventPath(slug));
      adopt(updated);
      onSaved();
      showToast(
        `${updated.eventName} saved: ${updated.active ? 'open for orders' : `closed — ${closedMessage(updated)}`}`,
      );
    } catch (err) {
      const e2 = onAdminError(err);
      const fields = e2 instanceof ApiError ? Object.values(e2.fieldErrors()) : [];
      setProblem(fields.length > 0 ? `${e2.message}: ${fields.join('; ')}` : e2.message);
    } finally {
      setBusy(false);
    }
  };

  const id = (name: string) => `ev-${config.eventPrefix}-${name}`;
  // A folder copied in without event.json is not on sale until an admin publishes it.
  const unpublished = !config.orderingEnabled && !config.isArchived;
  return (
    <form class="event-form" onSubmit={save} noValidate>
      {unpublished && (
        <Notice kind="warn">
          <strong>Not on sale.</strong> Check the price list and shipping fee below, then publish to open ordering.{' '}
          <button type="button" class="btn btn-primary btn-small" disabled={busy} onClick={(e) => save(e, true)}>
            Publish with these prices
          </button>
        </Notice>
      )}
      <p class="muted small">
        {[config.eventPrefix, formatDate(config.date)].filter(Boolean).join(' · ')} ·{' '}
        {config.active ? 'Open for orders' : closedMessage(config)} · <a href={eventPath(slug)}>View gallery</a>
      </p>
      <div class="switches">
        <label class="switch">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(e) => setEnabled((e.target as HTMLInputElement).checked)}
          />
          <span>Ordering enabled</span>
        </label>
        <label class="switch">
          <input
            type="checkbox"
            checked={archived}
            onChange={(e) => setArchived((e.target as HTMLInputElement).checked)}
          />
          <span>Archived</span>
        </label>
        <label class="switch">
          <input
            type="checkbox"
            checked={autoPrint}
            aria-describedby={id('auto-print-hint')}
            onChange={(e) => setAutoPrint((e.target as HTMLInputElement).checked)}
          />
          <span>Print pickup orders when paid</span>
        </label>
        <FaceSearchSwitch id={id('faces')} checked={faceSearch} onChange={setFaceSearch} />
        <label class="switch">
          <input
            type="checkbox"
            checked={showRejected}
            onChange={(e) => setShowRejected((e.target as HTMLInputElement).checked)}
          />
          <span>Show rejected photos</span>
        </label>
      </div>
      <p class="hint" id={id('auto-print-hint')}>
        Auto-print: a pickup order’s prints go to the first idle printer holding their size as soon as it is marked paid
        (orders paid before you turn this on wait in the print queue).
      </p>
      <FaceSearchProgress id={id('faces')} slug={slug} on={config.faceSearch} />
      <div class="field">
        <label for={id('min-rating')}>Show photos rated at least</label>
        <select
          id={id('min-rating')}
          value={String(minRating)}
          onChange={(e) => setMinRating(Number((e.target as HTMLSelectElement).value))}
        >
          <option value="0">All photos</option>
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={String(n)}>
              {n} {n === 1 ? 'star' : 'stars'}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id('featured-rating')}>Featured: photos rated at least</label>
        <select
          id={id('featured-rating')}
          value={String(featuredRating)}
          onChange={(e) => setFeaturedRating(Number((e.target as HTMLSelectElement).value))}
        >
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={String(n)}>
              {n} {n === 1 ? 'star' : 'stars'}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id('deadline')}>Ordering deadline</label>
        <p class="hint" id={id('deadline-hint')}>
          Your local time. Leave empty for no deadline.
        </p>
        <div class="find-row">
          <input
            id={id('deadline')}
            type="datetime-local"
            value={deadline}
            aria-describedby={id('deadline-hint')}
            onInput={(e) => setDeadline((e.target as HTMLInputElement).value)}
          />
          <button
            type="button"
            class="btn btn-secondary btn-small"
            onClick={() => setDeadline('')}
            disabled={!deadline}
          >
            No deadline
          </button>
        </div>
      </div>
      <fieldset class="prices">
        <legend>Prices (USD)</legend>
        <ul>
          {rows.map((r, i) => (
            <li key={r.id} class="price-row">
              <input
                aria-label={`Size ${i + 1}`}
                value={r.size}
                maxLength={32}
                onInput={(e) =>
                  setRows(rows.map((x) => (x.id === r.id ? { ...x, size: (e.target as HTMLInputElement).value } : x)))
                }
              />
              <input
                aria-label={`Price of ${r.size || `size ${i + 1}`}`}
                inputMode="decimal"
                value={r.price}
                onInput={(e) =>
                  setRows(rows.map((x) => (x.id === r.id ? { ...x, price: (e.target as HTMLInputElement).value } : x)))
                }
              />
              <button
                type="button"
                class="btn btn-icon btn-ghost"
                aria-label={`Remove size ${r.size}`}
                onClick={() => setRows(rows.filter((x) => x.id !== r.id))}
              >
                <TrashIcon size={20} />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          class="btn btn-secondary btn-small"
          onClick={() => setRows([...rows, { id: ++rowSeq, size: '', price: '' }])}
        >
          + Add a size
        </button>
      </fieldset>
      <div class="field field-short">
        <label for={id('fee')}>Shipping fee (USD)</label>
        <input
          id={id('fee')}
          inputMode="decimal"
          value={fee}
          onInput={(e) => setFee((e.target as HTMLInputElement).value)}
        />
      </div>
      <OffersFields
        id={id}
        sizes={rows.map((r) => r.size.trim()).filter(Boolean)}
        rows={packages}
        onRows={setPackages}
        early={early}
        onEarly={setEarly}
      />
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
