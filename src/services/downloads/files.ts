/**
 * Rendered downloads kept on disk, `DATA_DIR/downloads/<photo>-<version>.jpg`: each photo
 * version is rendered once (render.ts, one at a time: a full-resolution encode takes a core
 * for a second or two) and every download of it, up to DOWNLOAD_MAX per order line, streams
 * the same file. A render is written to a temporary name and renamed into place, so a file
 * under its final name is always whole; rendering a newer version of a photo removes the
 * older ones. Only sold photos are ever rendered.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { renderDownload } from './render.js';

export const DOWNLOADS_DIR = 'downloads';

export type PhotoRef = { eventCode: string; id: string; version: string };

export interface DownloadFiles {
  /** The rendered file of this photo version (rendered now when missing), and its size. */
  ensure(photo: PhotoRef, originalPath: string): Promise<{ file: string; size: number }>;
  /** Deletes every rendered version of the photo (a takedown's "remove": docs/contract.md, "Takedown requests"). */
  forget(photo: Pick<PhotoRef, 'eventCode' | 'id'>): Promise<void>;
  /** Renders done by this instance (for tests). */
  readonly renders: number;
}

const hash = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

export function createDownloadFiles(dataDir: string): DownloadFiles {
  const dir = path.join(dataDir, DOWNLOADS_DIR);
  const limit = pLimit(1);
  const inflight = new Map<string, Promise<{ file: string; size: number }>>();
  let renders = 0;

  async function render(stem: string, file: string, originalPath: string) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await limit(() => renderDownload(originalPath, tmp));
      await rename(tmp, file);
      renders++;
    } finally {
      await unlink(tmp).catch(() => {});
    }
    // Older versions of this photo are of no use any more.
    for (const name of await readdir(dir)) {
      if (name.startsWith(`${stem}-`) && name.endsWith('.jpg') && path.join(dir, name) !== file) {
        await unlink(path.join(dir, name)).catch(() => {});
      }
    }
  }

  return {
    get renders() {
      return renders;
    },
    async forget(photo) {
      const stem = hash(`${photo.eventCode}/${photo.id}`, 24);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        if (name.startsWith(`${stem}-`) && name.endsWith('.jpg')) await unlink(path.join(dir, name)).catch(() => {});
      }
    },
    ensure(photo, originalPath) {
      const stem = hash(`${photo.eventCode}/${photo.id}`, 24);
      const file = path.join(dir, `${stem}-${hash(photo.version, 12)}.jpg`);
      const running = inflight.get(file);
      if (running) return running;
      const work = (async () => {
        const existing = await stat(file).catch(() => undefined);
        if (!existing) await render(stem, file, originalPath);
        return { file, size: (existing ?? (await stat(file))).size };
      })().finally(() => inflight.delete(file));
      inflight.set(file, work);
      return work;
    },
  };
}
