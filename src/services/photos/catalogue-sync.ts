/**
 * The photo library's writes to the photo catalogue and its reads of it: each event's commit
 * (its view built anew), the read at start-up, the periodic read of what other processes
 * wrote, and telling the record that an event folder is gone. Each outage is logged once.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../../lib/logger.js';
import type { PhotoCataloguePort } from '../store/ports/photo-catalogue.js';
import type { CatalogueLink } from './catalogue-link.js';
import type { IntakeGate } from './intake-gate.js';
import { importLegacyIndex } from './legacy-index.js';
import { type CommitContext, commit, type EventState } from './photo-index.js';
import type { ListingRules } from './types.js';
import { buildView } from './views.js';

/** Between attempts to read the catalogue at start-up, while the store can't answer. */
const START_RETRY_MS = 1000;

export type CatalogueSyncOptions = {
  photosDir: string;
  dataDir: string;
  catalogue: Pick<PhotoCataloguePort, 'changesSince' | 'write' | 'importIndex'>;
  log: Logger;
  gapMs: number;
  states: Map<string, EventState>;
  link: CatalogueLink;
  gate: IntakeGate;
  listingOf: (code: string) => Partial<ListingRules> | undefined;
  isClosed: () => boolean;
};

export class CatalogueSync {
  private writeFailing = false;
  private syncFailing = false;
  private readonly commitContext: CommitContext;

  constructor(private readonly o: CatalogueSyncOptions) {
    const { log, link } = o;
    this.commitContext = {
      log,
      gapMs: o.gapMs,
      listingOf: o.listingOf,
      catalogue: o.catalogue,
      since: () => link.seq,
      merge: (changes, named) => link.merge(changes, { named }),
      written: () => {
        if (this.writeFailing) log.info('the photo catalogue takes writes again; new photos are numbered');
        this.writeFailing = false;
      },
      failed: (err, st) => {
        // Once per outage: the sync tries every second until it takes.
        if (!this.writeFailing) {
          log.error(
            { err, event: st.code },
            'cannot write to the photo catalogue; new photos wait unlisted until it can',
          );
        }
        this.writeFailing = true;
      },
    };
  }

  /** Commits one event: its view is built anew, whatever the catalogue's answer made stale. */
  async commitEvent(st: EventState): Promise<void> {
    await commit(st, this.commitContext);
    this.o.link.stale.delete(st);
  }

  /** Builds again the views of events whose rows changed; true when any was. */
  rebuildStale(): boolean {
    const { link, states, log, gapMs, listingOf } = this.o;
    let any = false;
    for (const st of link.stale) {
      if (st.view && states.get(st.code) === st) {
        st.view = buildView(st, { log, gapMs, listingOf });
        any = true;
      }
    }
    link.stale.clear();
    return any;
  }

  /** An event folder that is gone: the record is told its files are, and its rows wait in case it returns. */
  async forgetEvent(st: EventState): Promise<void> {
    const { link, log } = this.o;
    this.o.states.delete(st.code);
    this.o.gate.forgetUnder(path.join(this.o.photosDir, st.code) + path.sep);
    const gone: string[] = [];
    for (const [path, row] of st.rows) if (row.present) gone.push(path);
    link.forget(st);
    if (gone.length === 0) return;
    try {
      link.merge(await this.o.catalogue.write(st.code, { gone }, link.seq));
    } catch (err) {
      log.warn({ err, event: st.code }, 'cannot tell the photo catalogue that an event folder is gone');
    }
  }

  /**
   * Merges what any process wrote to the catalogue since the last read and writes what a
   * failed commit left; true when a view changed (to publish).
   */
  async sync(): Promise<boolean> {
    const { link, log, isClosed } = this.o;
    if (isClosed()) return false;
    try {
      link.merge(await this.o.catalogue.changesSince(link.seq));
      if (this.syncFailing) log.info('the photo catalogue answers again');
      this.syncFailing = false;
    } catch (err) {
      if (!this.syncFailing) log.warn({ err }, 'cannot read the photo catalogue; other servers’ changes wait');
      this.syncFailing = true;
    }
    let any = false;
    for (const st of [...this.o.states.values()]) {
      if (!st.unsaved || !st.view || isClosed()) continue;
      await this.commitEvent(st);
      any = true;
    }
    if (this.rebuildStale()) any = true;
    return any;
  }

  /** The upgrade (legacy-index.ts), then every row of the catalogue: what the first scan starts from. */
  async load(): Promise<void> {
    const { dataDir, catalogue, log, link } = this.o;
    for (let attempt = 0; !this.o.isClosed(); attempt++) {
      try {
        await importLegacyIndex({ dataDir, catalogue, log });
        link.merge(await catalogue.changesSince(0), { rescan: false });
        return;
      } catch (err) {
        if (attempt === 0) log.error({ err }, 'cannot read the photo catalogue; the gallery waits for it');
        await delay(START_RETRY_MS);
      }
    }
  }
}
