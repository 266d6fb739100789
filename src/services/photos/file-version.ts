/**
 * One version of a photo file as a scan reads it (file-reader.ts on the event loop,
 * header-thread.ts beside it): its header (header.ts) and, when asked, the photographer's
 * metadata in it and in its XMP sidecar (metadata.ts), the sidecar winning. A file whose
 * size and modification time did not change is read again when its sidecar did (appeared,
 * changed or went), or when the record has never had its metadata.
 */

import fs from 'node:fs';
import path from 'node:path';
import { type ImageHeader, readImageHeader } from './header.js';
import {
  combineMetadata,
  type ReadMetadata,
  readSidecar,
  recordedSidecar,
  type SidecarSignature,
  sidecarSignature,
} from './metadata.js';
import type { Entry } from './photo-index.js';

/** The sidecar beside a file, by its name in the folder listing. */
export type SidecarRef = { dir: string; name: string };

export type FileVersion = Omit<ImageHeader, 'metadata'> & { meta?: ReadMetadata };

/** The header, and the metadata (file and sidecar) when `withMetadata`. */
export async function readFileVersion(
  file: string,
  buffer: Buffer,
  size: number,
  blocking: boolean,
  withMetadata: boolean,
  sidecar: SidecarRef | undefined,
): Promise<FileVersion> {
  const header = await readImageHeader(file, buffer, size, blocking, withMetadata);
  const version: FileVersion = { width: header.width, height: header.height, takenAtMs: header.takenAtMs };
  if (!withMetadata) return version;
  const side = sidecar ? await readSidecar(path.join(sidecar.dir, sidecar.name), sidecar.name, blocking) : undefined;
  version.meta = combineMetadata(header.metadata ?? {}, side?.fields ?? {}, side?.signature ?? '');
  return version;
}

/** The sidecar version the entry's metadata was read with ('' none); null when it has none yet. */
export function knownSidecar(entry: Pick<Entry, 'meta' | 'row'> | undefined): SidecarSignature | null {
  if (!entry) return null;
  return entry.meta ? recordedSidecar(entry.meta.metadata) : recordedSidecar(entry.row?.metadata);
}

/** The sidecar's version now: '' when there is none. */
export async function currentSidecar(sidecar: SidecarRef | undefined, blocking: boolean): Promise<SidecarSignature> {
  if (!sidecar || blocking) return currentSidecarNow(sidecar);
  const s = await fs.promises.stat(path.join(sidecar.dir, sidecar.name)).catch(() => undefined);
  return signatureOf(sidecar, s);
}

/** `currentSidecar` with a synchronous stat (the scan's synchronous slices). */
export function currentSidecarNow(sidecar: SidecarRef | undefined): SidecarSignature {
  if (!sidecar) return '';
  try {
    return signatureOf(sidecar, fs.statSync(path.join(sidecar.dir, sidecar.name)));
  } catch {
    return '';
  }
}

/** '' when the sidecar is gone or not a file. */
const signatureOf = (sidecar: SidecarRef, s: fs.Stats | undefined): SidecarSignature =>
  s?.isFile() ? sidecarSignature(sidecar.name, s.size, s.mtimeMs) : '';
