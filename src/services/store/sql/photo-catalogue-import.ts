/**
 * Importing the earlier design's photo index into the catalogue (PhotoCataloguePort.importIndex),
 * inside the caller's locked transaction: the numbers it gave are kept unless another file
 * holds them already.
 */
import type { ImportedFile, ImportOutcome } from '../ports/photo-catalogue.js';
import type { Param, Tx } from './db.js';
import { catalogueValues, PHOTO_CATALOGUE } from './photo-catalogue-rows.js';

/** Inserts the files not in the record yet, stamped `seq`; says what it did with each. */
export async function importFiles(
  tx: Tx,
  seq: number,
  eventCode: string,
  files: readonly ImportedFile[],
): Promise<ImportOutcome> {
  const existing = await tx.all<{ path: string; number: number | null }>(
    'SELECT path, number FROM photo_catalogue WHERE event_code = ?',
    [eventCode],
  );
  const known = new Map(existing.map((r) => [r.path, r.number]));
  const used = new Set(existing.flatMap((r) => (r.number === null ? [] : [r.number])));
  const outcome: ImportOutcome = { imported: 0, known: 0, disagreed: [], renumbered: [] };
  const rows: Param[][] = [];
  for (const f of files) {
    if (known.has(f.path)) {
      outcome.known++;
      const recorded = known.get(f.path) ?? null;
      if (f.number !== null && recorded !== f.number)
        outcome.disagreed.push({ path: f.path, number: f.number, recorded });
      continue;
    }
    let number = f.number;
    if (number !== null && used.has(number)) {
      outcome.renumbered.push({ path: f.path, number });
      number = null;
    }
    // A retired number that another file holds now: nothing of it is left to keep.
    if (f.facts === null && number === null) continue;
    if (number !== null) used.add(number);
    known.set(f.path, number);
    const facts = f.facts;
    rows.push(
      catalogueValues({
        eventCode,
        path: f.path,
        id: f.id,
        number,
        facts,
        inspected: f.photoCode !== undefined,
        photoCode: f.photoCode ?? null,
        present: facts !== null,
        hidden: false,
        rating: null,
        metadata: null,
        seq,
      }),
    );
    outcome.imported++;
  }
  await tx.insert('photo_catalogue', PHOTO_CATALOGUE.names, rows);
  return outcome;
}
