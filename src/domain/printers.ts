/**
 * The booth's printers (docs/contract.md, "Printing at the booth"): the `PRINTERS` setting and
 * the IPP media each print size is sent with. Pure: parsed once at start-up by the config.
 *
 * `PRINTERS` lists entries separated by spaces or newlines, each
 * `name=ipp://host:port/path;sizes=4x6,5x7` (or `ipps://`), optionally `;tls=unverified` for an
 * `ipps://` printer whose certificate is self-signed (CUPS makes its own). The name is what
 * staff pick and what the order history says; the sizes are the paper the printer holds.
 */
import { sizeKey } from './prints.js';

export type PrinterEntry = {
  /** Letters, digits, `-`, `_` and `.`: unique, case-insensitively. */
  name: string;
  /** The printer's IPP URL as written (`ipp://` or `ipps://`), credentials included if any. */
  url: string;
  /** The sizes it prints, as written (`4x6`), compared with sizeKey. */
  sizes: string[];
  /** `unverified`: an `ipps://` printer's certificate is not checked (a self-signed CUPS one). */
  tls: 'verify' | 'unverified';
};

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const SIZE = /^[\p{L}\p{N}][\p{L}\p{N}×./"'-]{0,31}$/u;

/** One entry, or a sentence saying what is wrong with it. */
function parseEntry(text: string): PrinterEntry | string {
  const eq = text.indexOf('=');
  if (eq <= 0) return `"${text}" is not name=ipp://host:port/path;sizes=...`;
  const name = text.slice(0, eq);
  if (!NAME.test(name)) return `printer name "${name}" must be 1-40 letters, digits, "." "-" or "_"`;
  const [address = '', ...options] = text.slice(eq + 1).split(';');
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `${name}: "${address}" is not a URL`;
  }
  if (url.protocol !== 'ipp:' && url.protocol !== 'ipps:') return `${name}: the URL must start with ipp:// or ipps://`;
  if (!url.hostname) return `${name}: the URL names no host`;
  const entry: PrinterEntry = { name, url: address, sizes: [], tls: 'verify' };
  for (const option of options) {
    const [key, value = ''] = option.split('=', 2) as [string, string | undefined];
    if (key === 'sizes') {
      entry.sizes = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = entry.sizes.find((s) => !SIZE.test(s));
      if (bad !== undefined) return `${name}: "${bad}" is not a print size`;
    } else if (key === 'tls' && (value === 'unverified' || value === 'verify')) {
      entry.tls = value;
    } else {
      return `${name}: unknown option "${option}" (sizes=4x6,5x7 or tls=unverified)`;
    }
  }
  if (entry.sizes.length === 0) return `${name}: say which sizes it prints, e.g. ${name}=${address};sizes=4x6`;
  return entry;
}

/**
 * Every entry of a `PRINTERS` value, in order (the first printer holding a size is tried
 * first), or the list of what is wrong (each naming its entry).
 */
export function parsePrinters(value: string): { printers: PrinterEntry[]; problems: string[] } {
  const printers: PrinterEntry[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const text of value.split(/\s+/).filter(Boolean)) {
    const entry = parseEntry(text);
    if (typeof entry === 'string') {
      problems.push(entry);
      continue;
    }
    if (seen.has(entry.name.toLowerCase())) {
      problems.push(`two printers are named ${entry.name}`);
      continue;
    }
    seen.add(entry.name.toLowerCase());
    printers.push(entry);
  }
  return { printers, problems };
}

/** Whether the printer holds paper of this print size. */
export function holdsSize(printer: Pick<PrinterEntry, 'sizes'>, size: string): boolean {
  const key = sizeKey(size);
  return printer.sizes.some((s) => sizeKey(s) === key);
}

/** The printer's URL without credentials: what the dashboard and the logs may show. */
export function publicPrinterUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString();
}

/**
 * PWG media names (PWG 5101.1) of the sizes a booth sells; IPP Everywhere printers name their
 * paper with these, so a print is matched with the paper loaded.
 */
const MEDIA: Record<string, string> = {
  '3.5x5': 'na_3.5x5_3.5x5in',
  '4x6': 'na_index-4x6_4x6in',
  '5x7': 'na_5x7_5x7in',
  '8x10': 'na_govt-letter_8x10in',
  '8.5x11': 'na_letter_8.5x11in',
  '11x14': 'na_11x14_11x14in',
  '12x18': 'na_arch-b_12x18in',
};

/**
 * The IPP `media` keyword of a print size: the PWG name of a known size, else PWG's
 * self-describing custom name from its inches (`custom_<size>_<w>x<h>in`), which a printer
 * that cannot print it refuses.
 */
export function mediaFor(size: string, inches: readonly [number, number]): string {
  const key = sizeKey(size);
  const known = MEDIA[key] ?? MEDIA[`${inches[0]}x${inches[1]}`];
  if (known) return known;
  const label = key.replace(/[^a-z0-9.-]+/g, '-') || 'print';
  return `custom_${label}_${inches[0]}x${inches[1]}in`;
}
