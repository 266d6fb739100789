/**
 * The event's offers as the gallery and the lightbox show them: the early bird while it
 * runs, and the packages with what each saves. The cart shows the server's figures for the
 * actual order (POST /api/quote); these are the standing offers.
 */

import type { EventConfig } from '../lib/api-schema.js';
import { dollarsToCents, formatDateTime, money } from '../lib/format.js';

const DIGITAL = 'digital';

export const isDigital = (size: string): boolean => size.toLowerCase().replace(/\s+/g, '') === DIGITAL;

/** How a size reads to a customer: `digital` is a file, the rest are prints. */
export const sizeLabel = (size: string): string => (isDigital(size) ? 'Digital file' : size);

type Package = EventConfig['packages'][number];

/** What one package saves against its copies at the unit price, in cents (0 when the size is gone). */
function packageSaving(config: EventConfig, p: Package): number {
  const key = p.size.toLowerCase().replace(/\s+/g, '');
  const unit = Object.entries(config.prices).find(([s]) => s.toLowerCase().replace(/\s+/g, '') === key)?.[1];
  return unit === undefined ? 0 : Math.max(0, p.count * dollarsToCents(unit) - dollarsToCents(p.price));
}

function earlyBirdRunning(config: EventConfig, now = Date.now()): boolean {
  return config.earlyBird !== null && Date.parse(config.earlyBird.until) > now;
}

function packageText(config: EventConfig, p: Package): string {
  const saving = packageSaving(config, p);
  const what = isDigital(p.size) ? 'digital files' : `${p.size} prints`;
  return `${p.count} ${what} for ${money(dollarsToCents(p.price))}${saving > 0 ? ` (save ${money(saving)})` : ''}`;
}

/** The banner on the event's gallery page; nothing when there is no offer. */
export function OffersNotice({ config }: { config: EventConfig }) {
  const early = earlyBirdRunning(config) ? config.earlyBird : null;
  const packages = config.packages.filter((p) => packageSaving(config, p) > 0);
  if (!early && packages.length === 0) return null;
  return (
    <section class="notice offers" aria-label="Offers">
      {early && (
        <p>
          <strong>Early bird: {early.percent}% off</strong> every order placed before {formatDateTime(early.until)}.
        </p>
      )}
      {packages.length > 0 && (
        <p>
          <strong>Packages:</strong> {packages.map((p) => packageText(config, p)).join(' · ')}.
        </p>
      )}
    </section>
  );
}

/** Under the size choice in the lightbox: the package of the chosen size, if any. */
export function PackageHint({ config, size }: { config: EventConfig; size: string }) {
  const p = config.packages.find((x) => x.size.toLowerCase() === size.toLowerCase());
  if (!p || packageSaving(config, p) === 0) return null;
  return <p class="muted small package-hint">Package: {packageText(config, p)}, any photos.</p>;
}
