/**
 * The offers part of an event's settings: packages (per size, every full `count` copies cost
 * `price`) and the early bird (`percent` off orders placed before `until`). EventSettings.tsx
 * holds the state; `offersChange` turns it into the fields of `PUT /api/event-config` that
 * changed, or a problem to show.
 */
import { TrashIcon } from '../components/icons.js';
import type { EventConfig } from '../lib/api-schema.js';

export type PackageRow = { id: number; size: string; count: string; price: string };
export type EarlyBirdFields = { percent: string; until: string };

let seq = 0;
const AMOUNT = /^\d{1,6}(\.\d{1,2})?$/;
const WHOLE = /^\d{1,4}$/;

/** ISO instant → the `datetime-local` value in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function packageRows(c: EventConfig): PackageRow[] {
  return c.packages.map((p) => ({ id: ++seq, size: p.size, count: String(p.count), price: p.price.toFixed(2) }));
}

export function earlyBirdFields(c: EventConfig): EarlyBirdFields {
  return c.earlyBird
    ? { percent: String(c.earlyBird.percent), until: toLocalInput(c.earlyBird.until) }
    : { percent: '', until: '' };
}

/** The changed offer fields for the PUT body, or the first problem found. */
export function offersChange(
  c: EventConfig,
  rows: PackageRow[],
  early: EarlyBirdFields,
): { body: Record<string, unknown> } | { problem: string } {
  const body: Record<string, unknown> = {};
  const packages = [];
  for (const r of rows) {
    const size = r.size.trim();
    if (!size) return { problem: 'Each package needs a size.' };
    if (!WHOLE.test(r.count.trim()) || Number(r.count) < 2) {
      return { problem: `A package of ${size} needs 2 or more copies.` };
    }
    if (!AMOUNT.test(r.price.trim())) return { problem: `The package price of ${size} must be an amount such as 20.` };
    packages.push({ size, count: Number(r.count), price: Number(r.price) });
  }
  if (JSON.stringify(packages) !== JSON.stringify(c.packages)) body.packages = packages;

  const percent = early.percent.trim();
  if (percent === '' && early.until === '') {
    if (c.earlyBird !== null) body.earlyBird = null;
  } else {
    if (!WHOLE.test(percent) || Number(percent) < 1 || Number(percent) > 100) {
      return { problem: 'The early-bird discount is a whole percentage from 1 to 100.' };
    }
    const until = new Date(early.until);
    if (!early.until || Number.isNaN(until.getTime())) return { problem: 'The early bird needs an end date and time.' };
    const next = { percent: Number(percent), until: until.toISOString() };
    const same =
      c.earlyBird !== null &&
      c.earlyBird.percent === next.percent &&
      toLocalInput(c.earlyBird.until) === toLocalInput(next.until);
    if (!same) body.earlyBird = next;
  }
  return { body };
}

export function OffersFields({
  id,
  sizes,
  rows,
  onRows,
  early,
  onEarly,
}: {
  id: (name: string) => string;
  sizes: string[];
  rows: PackageRow[];
  onRows: (rows: PackageRow[]) => void;
  early: EarlyBirdFields;
  onEarly: (early: EarlyBirdFields) => void;
}) {
  const set = (row: PackageRow, patch: Partial<PackageRow>) =>
    onRows(rows.map((x) => (x.id === row.id ? { ...x, ...patch } : x)));
  const value = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
  return (
    <>
      <fieldset class="prices packages">
        <legend>Packages</legend>
        <p class="hint">Every full set of copies of a size costs the package price; the rest cost the unit price.</p>
        <ul>
          {rows.map((r, i) => (
            <li key={r.id} class="price-row">
              <select aria-label={`Package ${i + 1} size`} value={r.size} onChange={(e) => set(r, { size: value(e) })}>
                {[...new Set([r.size, ...sizes])].filter(Boolean).map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
              <input
                aria-label={`Copies in package ${i + 1}`}
                inputMode="numeric"
                value={r.count}
                onInput={(e) => set(r, { count: value(e) })}
              />
              <input
                aria-label={`Price of package ${i + 1}`}
                inputMode="decimal"
                value={r.price}
                onInput={(e) => set(r, { price: value(e) })}
              />
              <button
                type="button"
                class="btn btn-icon btn-ghost"
                aria-label={`Remove package ${i + 1}`}
                onClick={() => onRows(rows.filter((x) => x.id !== r.id))}
              >
                <TrashIcon size={20} />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          class="btn btn-secondary btn-small"
          onClick={() => onRows([...rows, { id: ++seq, size: sizes[0] ?? '', count: '5', price: '' }])}
        >
          + Add a package
        </button>
      </fieldset>
      <fieldset class="early-bird">
        <legend>Early bird</legend>
        <p class="hint" id={id('early-hint')}>
          A percentage off every order placed before the end (not added to a coupon: the larger applies). Leave both
          empty for none.
        </p>
        <div class="field-row">
          <div class="field field-short">
            <label for={id('early-percent')}>Percent off</label>
            <input
              id={id('early-percent')}
              inputMode="numeric"
              value={early.percent}
              aria-describedby={id('early-hint')}
              onInput={(e) => onEarly({ ...early, percent: value(e) })}
            />
          </div>
          <div class="field">
            <label for={id('early-until')}>Until (your local time)</label>
            <input
              id={id('early-until')}
              type="datetime-local"
              value={early.until}
              onInput={(e) => onEarly({ ...early, until: value(e) })}
            />
          </div>
        </div>
      </fieldset>
    </>
  );
}
