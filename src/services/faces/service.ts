/**
 * Find me by face (docs/contract.md, "Find me by face"), decorated as `fastify.faces`. A selfie
 * is decoded in memory, described in a face thread ahead of any indexing, and its largest face
 * compared with the event's; it is never written anywhere nor logged. Only photos the library
 * lists publicly, at the version indexed, can match.
 */
import { appError } from '../../errors/catalogue.js';
import type { Photo, PhotoLibrary } from '../photos/types.js';
import type { TakedownRecord } from '../store/ports/takedowns.js';
import type { Takedowns } from '../takedowns/service.js';
import { decodeForFaces } from './decode.js';
import type { FoundFace } from './engine.js';
import type { FaceThreads } from './face-threads.js';
import type { FaceIndexer } from './indexer.js';
import type { VectorStore } from './vector-store.js';

/** `off`: FACE_SEARCH=off; `missing`: on, but the face packages are not installed; `on`: working. */
export type FaceSearchState = 'off' | 'missing' | 'on';

export type FaceStatus = {
  state: FaceSearchState;
  /** Events with face search on: public photos, and how many have their faces indexed. */
  events: { eventSlug: string; indexed: number; total: number }[];
};

export interface FaceSearch {
  readonly state: FaceSearchState;
  /** The event's public photos showing the face of the selfie (its largest face), best match first. */
  find(eventCode: string, image: Buffer): Promise<Photo[]>;
  /**
   * "This is me" by selfie (docs/contract.md, "Find me by face"): a takedown request (`reason: "me"`)
   * for every photo `find` gives, each as the takedowns service files one (hidden at once in
   * hide-first mode, within its limits). Resolves with the requests, in match order.
   */
  takedown(
    eventCode: string,
    image: Buffer,
    from: { email: string; message: string; client?: string | undefined },
  ): Promise<TakedownRecord[]>;
  status(): Promise<FaceStatus>;
  close(): Promise<void>;
}

export type FaceSearchDeps = {
  photos: Pick<PhotoLibrary, 'findPhoto'>;
  takedowns: Pick<Takedowns, 'request'>;
  indexer: FaceIndexer;
  threads: FaceThreads;
  vectors: VectorStore;
  eventsOn: () => Promise<string[]>;
  minSimilarity: number;
};

/** The service when face search can't run: nothing started, nothing loaded. */
export function faceSearchOff(state: Exclude<FaceSearchState, 'on'>): FaceSearch {
  const off = async (): Promise<never> => {
    throw appError('FACE_SEARCH_OFF', {
      details: state === 'off' ? 'face search is off on this server' : 'the face packages are not installed',
    });
  };
  return {
    state,
    find: off,
    takedown: off,
    status: async () => ({ state, events: [] }),
    close: async () => undefined,
  };
}

export function createFaceSearch(deps: FaceSearchDeps): FaceSearch {
  async function selfieFace(image: Buffer): Promise<FoundFace> {
    const pixels = await decodeForFaces(image).catch(() => {
      throw appError('VALIDATION_FAILED', { details: 'the body is not a readable JPEG, PNG or WebP image' });
    });
    const faces = await deps.threads.describe(pixels, 'now').catch(() => {
      throw appError('SERVICE_UNAVAILABLE', {
        details: 'the face engine could not read the picture',
        headers: { 'Retry-After': '5' },
      });
    });
    const largest = faces.reduce<FoundFace | undefined>((a, b) => (a && a.area >= b.area ? a : b), undefined);
    if (!largest) throw appError('NO_FACE', { details: 'no face was found in the picture' });
    return largest;
  }

  const search: FaceSearch = {
    state: 'on',
    async find(eventCode, image) {
      if (!(await deps.eventsOn()).includes(eventCode)) {
        throw appError('FACE_SEARCH_OFF', { details: 'face search is not on for this event' });
      }
      const face = await selfieFace(image);
      const found: Photo[] = [];
      for (const match of await deps.indexer.search(eventCode, face.vector, deps.minSimilarity)) {
        const photo = deps.photos.findPhoto(eventCode, match.photoId);
        if (photo && photo.version === match.version) found.push(photo);
      }
      return found;
    },
    async takedown(eventCode, image, from) {
      const records: TakedownRecord[] = [];
      for (const photo of await search.find(eventCode, image)) {
        records.push(
          await deps.takedowns.request({
            photo,
            reason: 'me',
            email: from.email,
            message: from.message,
            client: from.client,
          }),
        );
      }
      return records;
    },
    async status() {
      const events = [];
      for (const eventSlug of await deps.eventsOn()) {
        events.push({ eventSlug, ...(await deps.indexer.progress(eventSlug)) });
      }
      return { state: 'on', events };
    },
    async close() {
      // Together: closing the threads ends the pictures the indexer's photos wait for.
      await Promise.all([deps.indexer.close(), deps.threads.close()]);
      await deps.vectors.close();
    },
  };
  return search;
}
