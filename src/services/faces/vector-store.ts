/**
 * The event loop's end of the vector thread (vector-thread.ts), which holds every event's face
 * vectors and runs the selfie searches: a search of 100,000 faces on the event loop made every
 * gallery page wait (`npm run bench -- faces`: gallery p99 ≤ 50 ms). Vectors are transferred
 * once, so a search moves only the query and its matches. If the thread fails, the next call
 * starts an empty one and `generation` changes: the indexer then reads its events again.
 */
import { startThread, ThreadCalls } from '../../lib/thread.js';
import type { IndexedPhoto, Match } from './vector-index.js';
import type { VectorCall } from './vector-thread.js';

export type PhotoFaces = { photo: IndexedPhoto; vectors: Int8Array };

export class VectorStore {
  private calls: ThreadCalls<VectorCall, Match[]> | undefined;
  private started = 0;
  private closed = false;

  constructor(private readonly dim: number) {}

  /** Changes when a thread replaces one that failed (whose vectors were lost with it). */
  get generation(): number {
    return this.calls && !this.calls.failed ? this.started : this.started + 1;
  }

  /** Records these photos' faces for the event, replacing what each had. */
  async put(event: string, photos: readonly PhotoFaces[]): Promise<void> {
    if (photos.length === 0) return;
    let total = 0;
    for (const p of photos) total += p.vectors.length;
    const vectors = new Int8Array(total);
    let at = 0;
    for (const p of photos) {
      vectors.set(p.vectors, at);
      at += p.vectors.length;
    }
    const list = photos.map((p) => ({ photo: p.photo, faces: p.vectors.length / this.dim }));
    await this.thread().call(
      { type: 'put', event, dim: this.dim, photos: list, vectors },
      { transfer: [vectors.buffer] },
    );
  }

  async remove(event: string, photoIds: string[]): Promise<void> {
    if (photoIds.length > 0) await this.thread().call({ type: 'remove', event, photoIds });
  }

  async drop(event: string): Promise<void> {
    if (this.calls && !this.calls.failed) await this.calls.call({ type: 'drop', event });
  }

  /** The photos holding a face at least `minSimilarity` like `query`, best first (VectorIndex.search). */
  search(event: string, query: Int8Array, minSimilarity: number): Promise<Match[]> {
    return this.thread().call({ type: 'search', event, query, minSimilarity });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.calls?.stop(new Error('the vector thread is closed'));
  }

  private thread(): ThreadCalls<VectorCall, Match[]> {
    if (this.closed) throw new Error('the vector thread is closed');
    if (!this.calls || this.calls.failed) {
      this.started++;
      this.calls = new ThreadCalls(startThread(import.meta.url, 'vector-thread'), 'vector');
    }
    return this.calls;
  }
}
