/**
 * The vector thread's code (started by vector-store.ts): every event's face vectors in a
 * VectorIndex (vector-index.ts) of this thread, so that a selfie search (tens of milliseconds
 * over 100,000 faces on a loaded machine) runs here, not on the event loop the gallery pages
 * wait for. The vectors arrive once (transferred, not copied) and stay here; a search sends
 * only the query and gets only the matches back. Calls are answered in arrival order, so a
 * search sees every put sent before it.
 */
import { answerCalls } from '../../lib/thread.js';
import { type IndexedPhoto, type Match, VectorIndex } from './vector-index.js';

export type VectorCall =
  /** Records these photos' faces (`vectors`: each photo's `faces` vectors, one photo after the other). */
  | { type: 'put'; event: string; dim: number; photos: { photo: IndexedPhoto; faces: number }[]; vectors: Int8Array }
  | { type: 'remove'; event: string; photoIds: string[] }
  /** Forgets the event (face search turned off for it). */
  | { type: 'drop'; event: string }
  | { type: 'search'; event: string; query: Int8Array; minSimilarity: number };

const events = new Map<string, VectorIndex>();

function put(call: Extract<VectorCall, { type: 'put' }>): void {
  let index = events.get(call.event);
  if (!index) {
    index = new VectorIndex(call.dim);
    events.set(call.event, index);
  }
  let at = 0;
  for (const { photo, faces } of call.photos) {
    const size = faces * call.dim;
    index.put(photo, call.vectors.subarray(at, at + size));
    at += size;
  }
}

answerCalls<VectorCall, Match[]>((call) => {
  switch (call.type) {
    case 'put':
      put(call);
      return [];
    case 'remove':
      for (const id of call.photoIds) events.get(call.event)?.remove(id);
      return [];
    case 'drop':
      events.delete(call.event);
      return [];
    case 'search':
      return events.get(call.event)?.search(call.query, call.minSimilarity) ?? [];
  }
});
