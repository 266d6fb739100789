/**
 * The upgrade from the earlier design's DATA_DIR/photo-index/<event>-<hash>.json
 * (docs/contract.md, "The photo catalogue"): each file is taken into the catalogue unchanged,
 * with what its scans and inspections found so no header is read again, then renamed
 * `.imported`. One that can't be read is renamed `.unreadable-<time>`, logged, and its event
 * numbered anew.
 *
 * The format (version 2), arrays rather than objects keyed by path:
 *   sessions: [{ day, session, files: [[name, size, mtimeMs, width, height, takenAtMs|null, number, code?]] }]
 *             number 0: none (a code frame); code: the photo code the frame shows, "" for
 *             none, absent when not inspected yet
 *   retired:  [[relative path, number]]   numbers of files that were gone
 */
import { readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../lib/logger.js';
import type { ImportedFile, PhotoCataloguePort } from '../store/ports/photo-catalogue.js';
import { photoId, relativeKey } from './naming.js';

const FileTuple = z.tuple(
  [
    z.string(),
    z.number().nonnegative(),
    z.number(),
    z.number().int().positive(),
    z.number().int().positive(),
    z.number().nullable(),
    z.number().int().nonnegative(),
  ],
  z.string(),
);

const LegacyIndexFile = z.object({
  format: z.literal(2),
  code: z.string().min(1),
  nextNumber: z.number().int().positive(),
  sessions: z.array(z.object({ day: z.string(), session: z.string(), files: z.array(FileTuple) })),
  retired: z.array(z.tuple([z.string(), z.number().int().positive()])),
});
type LegacyIndexFile = z.infer<typeof LegacyIndexFile>;

/** Where the earlier design kept its index. */
export function indexDir(dataDir: string): string {
  return path.join(dataDir, 'photo-index');
}

function importedFiles(index: LegacyIndexFile): ImportedFile[] {
  const files: ImportedFile[] = [];
  for (const { day, session, files: list } of index.sessions) {
    for (const [name, size, mtimeMs, width, height, takenAtMs, number, code] of list) {
      const rel = relativeKey(day, session, name);
      const file: ImportedFile = {
        path: rel,
        id: photoId(index.code, rel),
        number: number > 0 ? number : null,
        facts: { size, mtimeMs, width, height, takenAtMs: takenAtMs === null ? null : Math.round(takenAtMs) },
      };
      if (code !== undefined) file.photoCode = code === '' ? null : code;
      files.push(file);
    }
  }
  for (const [rel, number] of index.retired) {
    files.push({ path: rel, id: photoId(index.code, rel), number, facts: null });
  }
  return files;
}

/**
 * Takes every `photo-index/*.json` into the catalogue, then renames it. Rejects when the
 * catalogue can't be written (the caller tries again: numbers must not be given anew
 * meanwhile); a file already renamed is never read again.
 */
export async function importLegacyIndex(opts: {
  dataDir: string;
  catalogue: Pick<PhotoCataloguePort, 'importIndex'>;
  log: Logger;
}): Promise<void> {
  const dir = indexDir(opts.dataDir);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    let index: LegacyIndexFile;
    try {
      index = LegacyIndexFile.parse(JSON.parse(await readFile(file, 'utf8')));
    } catch (err) {
      // Kept for the operator; the event's photos are numbered anew, which is logged loudly.
      opts.log.warn(
        { err, file },
        `ignoring unreadable photo index ${file}; photo numbers of its event will be given again`,
      );
      await rename(file, `${file}.unreadable-${Date.now()}`).catch(() => undefined);
      continue;
    }
    const outcome = await opts.catalogue.importIndex(index.code, importedFiles(index));
    opts.log.info(
      { event: index.code, imported: outcome.imported, known: outcome.known, file },
      'photo numbers of the earlier index taken into the photo catalogue',
    );
    if (outcome.disagreed.length > 0) {
      opts.log.warn(
        { event: index.code, count: outcome.disagreed.length, first: outcome.disagreed.slice(0, 10), file },
        'this server had numbered some photos otherwise than the photo catalogue (another server took its index in first); the record’s numbers stand: orders placed through this server before the upgrade may name other photos',
      );
    }
    if (outcome.renumbered.length > 0) {
      opts.log.warn(
        { event: index.code, count: outcome.renumbered.length, first: outcome.renumbered.slice(0, 10), file },
        'the photo catalogue had given some numbers of this index to other files already (another server numbered them first); the record’s numbers stand, these files get new ones',
      );
    }
    await rename(file, `${file}.imported`);
  }
}
