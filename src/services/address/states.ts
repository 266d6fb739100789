/**
 * US postal state codes and which of them a ZIP code may carry (docs/contract.md, "Notifications": the local check).
 */
import { ZIP_PREFIX_RANGES, ZIP_STATE_EXCEPTIONS } from './zip-prefixes.js';

/** The 50 states. */
const STATES: readonly string[] = (
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND ' +
  'OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
).split(' ');
const DISTRICT = ['DC'] as const;
/** Territories, and the freely associated states USPS serves as domestic mail. */
const TERRITORIES = ['PR', 'GU', 'VI', 'AS', 'MP', 'FM', 'MH', 'PW'] as const;
/** Armed Forces Americas, Europe, Pacific: the city is APO, FPO or DPO. */
const MILITARY = ['AA', 'AE', 'AP'] as const;
export const MILITARY_CITIES = ['APO', 'FPO', 'DPO'] as const;

export const POSTAL_STATE_CODES: ReadonlySet<string> = new Set([...STATES, ...DISTRICT, ...TERRITORIES, ...MILITARY]);

export function isMilitaryState(code: string): boolean {
  return (MILITARY as readonly string[]).includes(code);
}

/** prefix (0-999) → the states it is allocated to; built once from the bundled table. */
const PREFIX_STATES: ReadonlyArray<readonly string[]> = (() => {
  const table: string[][] = Array.from({ length: 1000 }, () => []);
  for (const [from, to, state] of ZIP_PREFIX_RANGES) {
    for (let p = from; p <= to; p++) (table[p] as string[]).push(state);
  }
  return table;
})();

/** The states a 5-digit ZIP code may belong to; empty when its prefix is not in use. */
export function statesForZip(zip5: string): readonly string[] {
  const byPrefix = PREFIX_STATES[Number(zip5.slice(0, 3))] ?? [];
  const extra = ZIP_STATE_EXCEPTIONS[zip5];
  return extra ? [...byPrefix, ...extra] : byPrefix;
}
