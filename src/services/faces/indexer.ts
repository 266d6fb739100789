/**
 * Background face indexing (docs/contract.md, "Find me by face"), and each event's vectors in
 * memory for the search. Public photos the record has no vectors of (at their version and the
 * current model) are queued newest first, described in the render queue's background lane and
 * a face thread, then recorded: the record says what is done, so a restart carries on and no
 * server indexes again what another did. Faces of photos no longer public are forgotten.
 */
import type { Logger } from '../../lib/logger.js';
import { RerunningPass } from '../../lib/rerun.js';
import type { ImageService } from '../images/types.js';
import type { Photo, PhotoLibrary } from '../photos/types.js';
import type { FaceIndexEntry, FacesPort } from '../store/ports/faces.js';
import { decodeForFaces } from './decode.js';
import { FACE_MODEL, VECTOR_SIZE } from './engine.js';
import type { FaceThreads } from './face-threads.js';
import type { IndexedPhoto, Match } from './vector-index.js';
import type { PhotoFaces, VectorStore } from './vector-store.js';

/** Rows are re-read from this long before the last one seen: a row's time is taken before its commit. */
const SYNC_MARGIN_MS = 60_000;
/** A row of a photo the library does not list is removed once it is this old (another server may list it first). */
const REMOVE_AFTER_MS = 60_000;
/**
 * Rows read per statement when an event is first read: each page holds the event loop for a
 * few ms (SQLite's reads are synchronous; bench/RESULTS.md).
 */
const LOAD_PAGE = 500;

export type IndexerDeps = {
  store: FacesPort;
  photos: Pick<PhotoLibrary, 'photosOf' | 'isReady' | 'originalPath' | 'onChange'>;
  images: Pick<ImageService, 'background'>;
  threads: FaceThreads;
  /** Where the vectors are kept and searched (the vector thread). */
  vectors: VectorStore;
  /** The events with face search on now. */
  eventsOn: () => Promise<string[]>;
  /** Photos indexed at once (FACE_THREADS). */
  concurrency: number;
  syncMs: number;
  log: Logger;
};

/** What this side knows of an event's vectors (they live in the vector thread): which photo at which version. */
type EventFaces = { photos: Map<string, IndexedPhoto>; lastSeen: string | undefined; generation: number };

export class FaceIndexer {
  private readonly events = new Map<string, Promise<EventFaces>>();
  private readonly queue: Photo[] = [];
  private readonly queued = new Set<string>();
  /** `event/id@version` of photos that could not be decoded: not tried again until the file changes. */
  private readonly unreadable = new Set<string>();
  /** Photos being indexed now (close waits for them: none writes to a store closed under it). */
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly pass = new RerunningPass(
    () => this.tick(),
    (err) => this.deps.log.warn({ err }, 'face indexing pass failed; the next one tries again'),
    () => this.closed,
  );
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: IndexerDeps) {
    this.unsubscribe = deps.photos.onChange(() => this.kick());
  }

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.deps.syncMs);
    this.timer.unref();
  }

  /**
   * The event's vectors, read from the record at the first call (or again after the vector
   * thread was replaced), then kept current.
   */
  async faces(eventCode: string): Promise<EventFaces> {
    for (;;) {
      let loaded = this.events.get(eventCode);
      if (!loaded) {
        loaded = this.load(eventCode);
        this.events.set(eventCode, loaded);
        const mine = loaded;
        loaded.catch(() => {
          if (this.events.get(eventCode) === mine) this.events.delete(eventCode);
        });
      }
      const ev = await loaded;
      if (ev.generation === this.deps.vectors.generation) return ev;
      if (this.events.get(eventCode) === loaded) this.events.delete(eventCode);
    }
  }

  /** The event's photos holding a face at least `minSimilarity` like `query`, best first. */
  async search(eventCode: string, query: Int8Array, minSimilarity: number): Promise<Match[]> {
    await this.faces(eventCode);
    return this.deps.vectors.search(eventCode, query, minSimilarity);
  }

  /** Public photos of the event, and how many of them have their current version indexed. */
  async progress(eventCode: string): Promise<{ indexed: number; total: number }> {
    const { photos } = await this.faces(eventCode);
    const listed = this.deps.photos.photosOf(eventCode) ?? [];
    let indexed = 0;
    for (const photo of listed) if (photos.get(photo.id)?.version === photo.version) indexed++;
    return { indexed, total: listed.length };
  }

  /** Runs a pass now (or right after the one under way). Resolves when it is done. */
  kick(): Promise<void> {
    return this.pass.run();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.unsubscribe();
    this.queue.length = 0;
    await this.pass.idle();
    await Promise.allSettled(this.running);
  }

  private async tick(): Promise<void> {
    const on = new Set(await this.deps.eventsOn());
    // Events turned off leave memory (their rows stay in the record for when they are on again).
    for (const code of [...this.events.keys()]) {
      if (on.has(code)) continue;
      this.events.delete(code);
      await this.deps.vectors.drop(code);
    }
    for (const code of on) {
      const ev = await this.faces(code);
      await this.sync(code, ev);
      if (this.deps.photos.isReady) await this.plan(code, ev);
    }
    this.pump();
  }

  /**
   * Reads the event's rows a page at a time (the event loop serves requests between pages) and
   * hands their vectors to the vector thread.
   */
  private async load(eventCode: string): Promise<EventFaces> {
    const generation = this.deps.vectors.generation;
    const ev: EventFaces = { photos: new Map(), lastSeen: undefined, generation };
    await this.deps.vectors.drop(eventCode);
    let afterPhotoId: string | undefined;
    for (;;) {
      const rows = await this.deps.store.page(eventCode, { afterPhotoId, limit: LOAD_PAGE });
      await this.apply(eventCode, ev, rows);
      if (rows.length < LOAD_PAGE) break;
      afterPhotoId = rows[rows.length - 1]?.photoId;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Rows recorded while the pages were read are taken in by the next sync (from `lastSeen` less a margin).
    ev.lastSeen ??= new Date(0).toISOString();
    return ev;
  }

  /** Takes in what was recorded since the last read (this process's rows or another's). */
  private async sync(eventCode: string, ev: EventFaces): Promise<void> {
    if (ev.lastSeen === undefined) return;
    const since = new Date(Date.parse(ev.lastSeen) - SYNC_MARGIN_MS).toISOString();
    await this.apply(eventCode, ev, await this.deps.store.list(eventCode, { since }));
  }

  /** Takes in rows newer than what is held: their versions here, their vectors in the vector thread. */
  private async apply(eventCode: string, ev: EventFaces, rows: readonly FaceIndexEntry[]): Promise<void> {
    const fresh: PhotoFaces[] = [];
    for (const row of rows) {
      if (ev.lastSeen === undefined || row.indexedAt > ev.lastSeen) ev.lastSeen = row.indexedAt;
      if (row.model !== FACE_MODEL) continue;
      const held = ev.photos.get(row.photoId);
      if (held && held.version === row.version && held.indexedAt >= row.indexedAt) continue;
      const bytes = Buffer.from(row.vectors, 'base64');
      if (bytes.length !== row.faces * VECTOR_SIZE) continue;
      const photo = { photoId: row.photoId, version: row.version, indexedAt: row.indexedAt };
      ev.photos.set(row.photoId, photo);
      fresh.push({ photo, vectors: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length) });
    }
    await this.deps.vectors.put(eventCode, fresh);
  }

  /** Queues the event's public photos not indexed at their version; forgets the faces of photos no longer public. */
  private async plan(eventCode: string, ev: EventFaces): Promise<void> {
    const listed = this.deps.photos.photosOf(eventCode) ?? [];
    const ids = new Set<string>();
    const todo: Photo[] = [];
    for (const photo of listed) {
      ids.add(photo.id);
      if (ev.photos.get(photo.id)?.version === photo.version) continue;
      const key = `${eventCode}/${photo.id}@${photo.version}`;
      if (this.queued.has(key) || this.unreadable.has(key)) continue;
      todo.push(photo);
    }
    const cutoff = new Date(Date.now() - REMOVE_AFTER_MS).toISOString();
    const gone = [...ev.photos.values()]
      .filter((photo) => !ids.has(photo.photoId) && photo.indexedAt < cutoff)
      .map((photo) => photo.photoId);
    if (gone.length > 0) {
      await this.deps.store.remove(eventCode, gone);
      for (const id of gone) ev.photos.delete(id);
      await this.deps.vectors.remove(eventCode, gone);
    }
    if (todo.length === 0) return;
    // Newest first: attendees look for the photos just taken.
    for (const photo of todo.reverse()) {
      this.queued.add(`${eventCode}/${photo.id}@${photo.version}`);
      this.queue.push(photo);
    }
    this.deps.log.info({ event: eventCode, photos: todo.length }, 'face indexing: photos queued');
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.deps.concurrency && this.queue.length > 0) {
      const photo = this.queue.shift() as Photo;
      const done: Promise<void> = this.index(photo).finally(() => {
        this.running.delete(done);
        this.queued.delete(`${photo.eventCode}/${photo.id}@${photo.version}`);
        this.pump();
      });
      this.running.add(done);
    }
  }

  private async index(photo: Photo): Promise<void> {
    const key = `${photo.eventCode}/${photo.id}@${photo.version}`;
    try {
      const ev = await this.faces(photo.eventCode);
      if (ev.photos.get(photo.id)?.version === photo.version) return;
      const found = await this.deps.images.background(async () => {
        if (this.closed) return undefined;
        const pixels = await decodeForFaces(this.deps.photos.originalPath(photo)).catch((err: unknown) => {
          this.unreadable.add(key);
          this.deps.log.warn({ event: photo.eventCode, photo: photo.number, err }, 'face indexing: cannot decode');
          return undefined;
        });
        return pixels && this.deps.threads.describe(pixels, 'background');
      });
      if (!found || this.closed) return;
      const vectors = new Int8Array(found.length * VECTOR_SIZE);
      found.forEach((face, i) => {
        vectors.set(face.vector, i * VECTOR_SIZE);
      });
      const row = await this.deps.store.put({
        eventSlug: photo.eventCode,
        photoId: photo.id,
        version: photo.version,
        model: FACE_MODEL,
        faces: found.length,
        vectors: Buffer.from(vectors.buffer, vectors.byteOffset, vectors.length).toString('base64'),
      });
      await this.apply(photo.eventCode, ev, [row]);
    } catch (err) {
      if (!this.closed)
        this.deps.log.warn({ event: photo.eventCode, photo: photo.number, err }, 'face indexing failed');
    }
  }
}
