/**
 * The one module that imports exifr: EXIF, XMP and IPTC read from a file's first bytes (or
 * the file), in process. Only the blocks and tags asked for are parsed: a photo's header is
 * read once per scan of 50,000 files (the gallery bench's cold index), so each read names
 * what it needs. exifr is loaded on the first read, not at start-up (about 0.1 s of CPU), and
 * kept: each later read waits on one settled promise.
 */
import type * as ExifrModule from 'exifr';

type Exifr = { parse: typeof ExifrModule.default.parse; sidecar: typeof ExifrModule.sidecar };
let loaded: Promise<Exifr> | undefined;
/**
 * exifr's `sidecar`: a named export of its ES module build (what vitest loads), a property of
 * its CommonJS build's default export (what Node loads); its ESM default export lacks it.
 */
const exifr = (): Promise<Exifr> =>
  (loaded ??= import('exifr').then((m) => ({ parse: m.default.parse, sidecar: m.sidecar ?? m.default.sidecar })));

/** The capture time (EXIF DateTimeOriginal, as text) and the orientation (IFD0), when asked for and present. */
export type CaptureTags = { DateTimeOriginal?: unknown; Orientation?: unknown };

/** exifr's output by block (`mergeOutput: false`, keys translated): `ifd0`, `exif`, `xmp`, `dc`, `iptc` … */
export type ExifSections = Record<string, Record<string, unknown> | undefined>;

const common = {
  gps: false,
  interop: false,
  ifd1: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  makerNote: false,
  userComment: false,
  translateKeys: true,
  translateValues: false,
  // Kept as text: exifr would revive "2026:07:03 10:00:00" in the server's time zone.
  reviveValues: false,
  sanitize: false,
  mergeOutput: true,
  silentErrors: true,
};
// exifr accepts `ifd0: false` and tag lists as block options (see its README); its typings do not.
type ExifrOptions = Parameters<Exifr['parse']>[1];
/** Only the Exif IFD: for a JPEG whose orientation is already known (twice as fast). */
const timeOnly = { ...common, ifd0: false, exif: ['DateTimeOriginal'] } as unknown as ExifrOptions;
const timeAndOrientation = { ...common, ifd0: ['Orientation'], exif: ['DateTimeOriginal'] } as unknown as ExifrOptions;

/** The capture time, and the orientation when `orientation`; undefined when the source has no EXIF. */
export async function readCaptureTags(
  source: Uint8Array | string,
  opts: { orientation: boolean },
): Promise<CaptureTags | undefined> {
  return (await (await exifr()).parse(source, opts.orientation ? timeAndOrientation : timeOnly)) as
    | CaptureTags
    | undefined;
}

type MetadataBlocks = { orientation: boolean; ifd0Tags: readonly string[]; xmp: boolean; iptc: boolean };

/**
 * The options for one kind of header, made once: exifr caches every options object it is given
 * (and a dozen Sets built from it) for the life of the process (`Options.useCached` in exifr 7),
 * so one per file was never freed (bench/RESULTS.md, "issue 31, third follow-up").
 */
const metadataOptions = new Map<string, ExifrOptions>();
export function captureAndMetadataOptions(blocks: MetadataBlocks): ExifrOptions {
  const key = `${blocks.orientation ? 'o' : ''}${blocks.xmp ? 'x' : ''}${blocks.iptc ? 'i' : ''}:${blocks.ifd0Tags.join(',')}`;
  let options = metadataOptions.get(key);
  if (!options) {
    options = {
      ...common,
      ifd0: blocks.orientation ? ['Orientation', ...blocks.ifd0Tags] : [...blocks.ifd0Tags],
      exif: ['DateTimeOriginal'],
      xmp: blocks.xmp,
      iptc: blocks.iptc,
      mergeOutput: false,
    } as unknown as ExifrOptions;
    metadataOptions.set(key, options);
  }
  return options;
}

/**
 * The capture time (and orientation when `orientation`) and the photographer's metadata in one
 * parse: `ifd0Tags` from IFD0, XMP and IPTC only when `xmp` / `iptc` (when the bytes hold them).
 */
export async function readCaptureAndMetadata(
  source: Uint8Array,
  blocks: MetadataBlocks,
): Promise<ExifSections | undefined> {
  return (await (await exifr()).parse(source, captureAndMetadataOptions(blocks))) as ExifSections | undefined;
}

/** An XMP sidecar's sections (`mergeOutput: false`); throws when it cannot be parsed. */
export async function readXmpSidecar(bytes: Buffer): Promise<ExifSections | undefined> {
  return (await (await exifr()).sidecar(bytes, { mergeOutput: false }, 'xmp')) as ExifSections | undefined;
}

/** One object for every call (see captureAndMetadataOptions). */
const COPYRIGHT_ONLY = { pick: ['Copyright'] };

/** IFD0 Copyright of the file, as found (any type); undefined when there is none. Throws on unreadable files. */
export async function readCopyrightTag(file: string): Promise<unknown> {
  const tags = (await (await exifr()).parse(file, COPYRIGHT_ONLY)) as { Copyright?: unknown } | undefined;
  return tags?.Copyright;
}
