/**
 * The `local` address check (docs/contract.md, "Notifications"): rules that need no network and are never wrong
 * about what they refuse. State code, ZIP / ZIP+4 format, ZIP prefix ↔ state (bundled
 * table), a house or box number in the street line, APO/FPO/DPO for military states.
 * Also the first step of the `usps` and `smarty` verifiers: an address these rules refuse
 * is not worth a paid lookup, and stays refused while those services are down.
 */
import { isMilitaryState, MILITARY_CITIES, POSTAL_STATE_CODES, statesForZip } from './states.js';
import type { AddressCheck, AddressVerifier, PostalAddress } from './types.js';

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** "P.O. Box 12", "p o box 12", "POB 12" → "PO Box 12". */
function normaliseLine1(line1: string): string {
  return collapse(line1).replace(/^(?:p\.?\s*o\.?\s*b(?:ox)?\.?|post\s+office\s+box)\s*(?=#?\s*\d)/i, 'PO Box ');
}

/** "123456789", "12345 6789", "12345-6789" → "12345-6789"; anything else unchanged (trimmed). */
function normaliseZip(zip: string): string {
  const compact = zip.replace(/\s+/g, '');
  const m = /^(\d{5})-?(\d{4})$/.exec(compact);
  if (m) return `${m[1]}-${m[2]}`;
  return compact;
}

/** Trimmed, spaces collapsed, state upper-case, ZIP normalised: what gets stored and printed. */
export function standardise(address: PostalAddress): PostalAddress {
  return {
    line1: normaliseLine1(address.line1),
    city: collapse(address.city),
    state: collapse(address.state).toUpperCase(),
    zip: normaliseZip(address.zip),
  };
}

const ZIP_FORMAT = /^\d{5}(?:-\d{4})?$/;
/** A house number, box number, rural route or unit number: some digits somewhere in the line. */
const HAS_NUMBER = /\d/;
const GENERAL_DELIVERY = /^general delivery$/i;

/** The local rules; `valid` carries the standardised address. */
export function checkLocally(input: PostalAddress): AddressCheck {
  const address = standardise(input);
  const { line1, city, state, zip } = address;
  if (!line1) return { status: 'invalid', field: 'line1', reason: 'The street address is missing' };
  if (!HAS_NUMBER.test(line1) && !GENERAL_DELIVERY.test(line1)) {
    return { status: 'invalid', field: 'line1', reason: 'The street address needs a house or PO Box number' };
  }
  if (!city) return { status: 'invalid', field: 'city', reason: 'The city is missing' };
  if (!POSTAL_STATE_CODES.has(state)) {
    return { status: 'invalid', field: 'state', reason: `"${state.slice(0, 20)}" is not a US state or territory code` };
  }
  if (!ZIP_FORMAT.test(zip)) {
    return { status: 'invalid', field: 'zip', reason: 'The ZIP code must be 12345 or 12345-6789' };
  }
  const states = statesForZip(zip.slice(0, 5));
  if (states.length === 0) {
    return { status: 'invalid', field: 'zip', reason: `No ZIP code begins with ${zip.slice(0, 3)}` };
  }
  if (!states.includes(state)) {
    return { status: 'invalid', field: 'zip', reason: `ZIP code ${zip.slice(0, 5)} is not in ${state}` };
  }
  if (isMilitaryState(state) && !(MILITARY_CITIES as readonly string[]).includes(city.toUpperCase())) {
    return { status: 'invalid', field: 'city', reason: `Mail to ${state} goes to APO, FPO or DPO as the city` };
  }
  return { status: 'valid', address };
}

export function createLocalVerifier(): AddressVerifier {
  return {
    name: 'local',
    async verify(address) {
      try {
        return checkLocally(address);
      } catch (err) {
        // Never throws (interface contract): an unexpected input shape lets the order through.
        return { status: 'unverified', reason: `local check failed: ${(err as Error).message}` };
      }
    },
  };
}

export function createOffVerifier(): AddressVerifier {
  return {
    name: 'off',
    async verify() {
      return { status: 'unverified', reason: 'address verification is off' };
    },
  };
}
