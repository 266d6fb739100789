/**
 * The photographer's metadata (docs/contract.md, "The photographer's metadata"): what
 * Lightroom Classic, Photo Mechanic and Capture One write into a photo's XMP and IPTC, or an
 * XMP sidecar beside it, read with exifr in the same parse as header.ts's capture time (why
 * exifr: docs/gallery-internals.md, "Reading the photographer's metadata"). Each field comes
 * from the sidecar when it has it, else from the file:
 * - rating: xmp:Rating; label: xmp:Label; title: dc:title, else photoshop:Headline;
 * - caption: dc:description; keywords: dc:subject and the last part of each
 *   lr:hierarchicalSubject, each once (case-insensitively), in the order found;
 * - photographer: dc:creator, else photoshop:Credit, else EXIF Artist.
 */
import fs from 'node:fs';
import { type ExifSections, readXmpSidecar } from '../../adapters/exifr.js';
import type { PhotoMetadata } from '../store/ports/photo-catalogue.js';

/** What one source (the file, or its sidecar) says; absent keys: it says nothing. */
export type MetadataFields = {
  rating?: number;
  label?: string;
  title?: string;
  caption?: string;
  keywords?: string[];
  photographer?: string;
};

/** What the catalogue keeps of a file's metadata: `metadata.sidecar` names the sidecar version read. */
export type ReadMetadata = { rating: number | null; metadata: PhotoMetadata };

/** A sidecar's version: `<name>:<size>:<mtimeMs>`; '' for no sidecar. */
export type SidecarSignature = string;

const XMP_MARK = Buffer.from('http://ns.adobe.com/xap/1.0/');
const IPTC_MARK = Buffer.from('Photoshop 3.0');
/** Longest text kept of one field: a caption is a sentence or two, not a document. */
const MAX_TEXT = 2000;
const MAX_KEYWORDS = 100;

/** The IFD0 tags the metadata reads (EXIF Artist), beside the blocks metadataBlocks names. */
export const METADATA_IFD0_TAGS: readonly string[] = ['Artist'];

/**
 * The exifr blocks that hold metadata, for header.ts's one parse of the header chunk: XMP and
 * IPTC only when the chunk holds them (most camera files don't; exifr would look for them
 * anyway).
 */
export function metadataBlocks(chunk: Uint8Array): { xmp: boolean; iptc: boolean } {
  const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return { xmp: buf.includes(XMP_MARK), iptc: buf.includes(IPTC_MARK) };
}

function text(value: unknown): string | undefined {
  if (Array.isArray(value)) return text(value[0]);
  if (value && typeof value === 'object') {
    const v = value as { value?: unknown; 'x-default'?: unknown };
    return text(v.value ?? v['x-default']);
  }
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const t = value.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  return t === '' ? undefined : t;
}

function texts(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((v) => {
    const t = text(v);
    return t === undefined ? [] : [t];
  });
}

/** Keywords once each, case-insensitively, in the order found. */
function uniqueKeywords(list: string[]): string[] | undefined {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of list) {
    const key = k.toLowerCase();
    if (seen.has(key) || out.length >= MAX_KEYWORDS) continue;
    seen.add(key);
    out.push(k.slice(0, 200));
  }
  return out.length ? out : undefined;
}

type Sections = {
  xmp?: { Rating?: unknown; Label?: unknown };
  dc?: { title?: unknown; description?: unknown; subject?: unknown; creator?: unknown };
  photoshop?: { Headline?: unknown; Credit?: unknown };
  lr?: { hierarchicalSubject?: unknown };
  iptc?: {
    Keywords?: unknown;
    Caption?: unknown;
    Headline?: unknown;
    ObjectName?: unknown;
    Byline?: unknown;
    Credit?: unknown;
  };
  ifd0?: { Artist?: unknown };
};

function rating(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  // Lightroom writes -1 for a reject; some tools write other negatives or fractions.
  return n < 0 ? -1 : Math.min(5, Math.round(n));
}

/**
 * IPTC text: exifr decodes it as Latin-1, but Photo Mechanic and Lightroom write UTF-8 (and
 * say so in dataset 1:90): bytes that form valid UTF-8 are read as that.
 */
function iptcText(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(iptcText);
  if (typeof value !== 'string' || !/[\u0080-\u00ff]/.test(value)) return value;
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8.includes('\ufffd') ? value : utf8;
}

function decodeIptc(iptc: Sections['iptc']): Sections['iptc'] {
  if (!iptc) return iptc;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(iptc)) out[k] = iptcText(v);
  return out;
}

/** The fields of exifr's output (`mergeOutput: false`, keys translated). */
export function fieldsFromExifr(sections: ExifSections | undefined): MetadataFields {
  if (!sections) return {};
  const raw = sections as Sections;
  const out: Sections = raw.iptc ? { ...raw, iptc: decodeIptc(raw.iptc) } : raw;
  const f: MetadataFields = {};
  const r = rating(out.xmp?.Rating);
  if (r !== undefined) f.rating = r;
  const label = text(out.xmp?.Label);
  if (label) f.label = label;
  const title =
    text(out.dc?.title) ?? text(out.photoshop?.Headline) ?? text(out.iptc?.ObjectName) ?? text(out.iptc?.Headline);
  if (title) f.title = title;
  const caption = text(out.dc?.description) ?? text(out.iptc?.Caption);
  if (caption) f.caption = caption;
  const hierarchical = texts(out.lr?.hierarchicalSubject).map((h) => h.split('|').pop()?.trim() ?? '');
  const keywords = uniqueKeywords(
    [...texts(out.dc?.subject), ...hierarchical, ...texts(out.iptc?.Keywords)].filter((k) => k !== ''),
  );
  if (keywords) f.keywords = keywords;
  const photographer =
    text(out.dc?.creator) ??
    text(out.photoshop?.Credit) ??
    text(out.iptc?.Byline) ??
    text(out.iptc?.Credit) ??
    text(out.ifd0?.Artist);
  if (photographer) f.photographer = photographer;
  return f;
}

/** Keywords starting with `_` are the photographer's own: never served, never searched. */
export const isPublicKeyword = (k: string) => !k.startsWith('_');

/** Where a photo's sidecar would be: `IMG_0001.jpg.xmp` first, then `IMG_0001.xmp`. */
function sidecarCandidates(fileName: string): string[] {
  const dot = fileName.lastIndexOf('.');
  const base = dot > 0 ? fileName.slice(0, dot) : fileName;
  return [`${fileName}.xmp`, `${base}.xmp`];
}

/** The sidecar of `fileName` among a folder's `.xmp` files (lower-cased name → name); undefined for none. */
export function findSidecar(fileName: string, sidecars: ReadonlyMap<string, string> | undefined): string | undefined {
  if (!sidecars || sidecars.size === 0) return undefined;
  for (const c of sidecarCandidates(fileName)) {
    const found = sidecars.get(c.toLowerCase());
    if (found) return found;
  }
  return undefined;
}

export const isSidecarName = (name: string) => name.toLowerCase().endsWith('.xmp');

/** The signature of a sidecar version. */
export const sidecarSignature = (name: string, size: number, mtimeMs: number): SidecarSignature =>
  `${name}:${size}:${mtimeMs}`;

/** A sidecar's fields; {} when it cannot be read (a sidecar half written is read again once it changes). */
async function parseSidecar(bytes: Buffer): Promise<MetadataFields> {
  try {
    return fieldsFromExifr(await readXmpSidecar(bytes));
  } catch {
    return {};
  }
}

/** Stats and reads a sidecar (synchronous calls for the header thread and the scan's slices). */
export async function readSidecar(
  file: string,
  name: string,
  blocking: boolean,
): Promise<{ signature: SidecarSignature; fields: MetadataFields } | undefined> {
  try {
    const s = blocking ? fs.statSync(file) : await fs.promises.stat(file);
    if (!s.isFile()) return undefined;
    const bytes = blocking ? fs.readFileSync(file) : await fs.promises.readFile(file);
    return { signature: sidecarSignature(name, s.size, s.mtimeMs), fields: await parseSidecar(bytes) };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** The file's fields and its sidecar's, the sidecar winning field by field. */
export function combineMetadata(
  embedded: MetadataFields,
  sidecar: MetadataFields,
  signature: SidecarSignature,
): ReadMetadata {
  const m = { ...embedded, ...sidecar };
  const metadata: PhotoMetadata = {};
  if (m.label !== undefined) metadata.label = m.label;
  if (m.title !== undefined) metadata.title = m.title;
  if (m.caption !== undefined) metadata.caption = m.caption;
  if (m.keywords !== undefined) metadata.keywords = m.keywords;
  if (m.photographer !== undefined) metadata.photographer = m.photographer;
  if (signature !== '') metadata.sidecar = signature;
  return { rating: m.rating ?? null, metadata };
}

/** The sidecar version a stored metadata was read with ('' none); null when never read. */
export function recordedSidecar(metadata: PhotoMetadata | null | undefined): SidecarSignature | null {
  if (!metadata) return null;
  return typeof metadata.sidecar === 'string' ? metadata.sidecar : '';
}

/** Whether two reads say the same (what the record needs no new write for). */
export function sameMetadata(a: ReadMetadata, b: { rating: number | null; metadata: PhotoMetadata | null }): boolean {
  return a.rating === b.rating && b.metadata !== null && stableJson(a.metadata) === stableJson(b.metadata);
}

function stableJson(m: PhotoMetadata): string {
  return JSON.stringify(m, Object.keys(m).sort());
}
