/**
 * "Find me" on an event page (docs/contract.md, "Find me by face"): the visitor takes a selfie
 * (the front camera on a phone) or picks a picture, and sees the event's photos showing them.
 * The picture is made smaller here first (at most 1,280 px, as JPEG: a phone's 50 MP photo is
 * larger than the server takes, and the face engine looks at 666 px), sent once and forgotten.
 */
import { useState } from 'preact/hooks';
import { type ApiError, api, ok, pictureBody } from '../lib/api.js';
import type { FaceSearchResult } from '../lib/api-schema.js';
import { plural } from '../lib/format.js';
import { ErrorBox, Notice, Spinner } from './common.js';
import { type GridPhoto, PhotoGrid } from './PhotoGrid.js';

type Found = FaceSearchResult['photos'];

const MAX_EDGE = 1280;

/** The picture at most MAX_EDGE px on its long edge, as JPEG; as it is when the browser can't read it. */
async function smaller(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, MAX_EDGE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    return blob ?? file;
  } catch {
    return file;
  }
}

function problem(error: ApiError | Error): Error {
  const code = (error as ApiError).code;
  if (code === 'NO_FACE')
    return new Error('No face was found in that picture. Try one with your face large and well lit.');
  if (code === 'RATE_LIMITED') return new Error('Too many searches just now. Please wait a minute and try again.');
  return error;
}

export function FindMe({
  code,
  onOpen,
  toGrid,
}: {
  code: string;
  /** Opens the lightbox on the photos found, at `index`. */
  onOpen: (photos: Found, index: number) => void;
  toGrid: (photo: Found[number]) => GridPhoto;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const [found, setFound] = useState<Found | undefined>();

  const search = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(undefined);
    setFound(undefined);
    try {
      const params = { path: { eventCode: code } };
      const picture = pictureBody(await smaller(file));
      setFound((await ok(api.POST('/api/events/{eventCode}/face-search', { params, ...picture }))).photos);
    } catch (err) {
      setError(problem(err as Error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card find-me" aria-labelledby="find-me-title">
      <h2 id="find-me-title" class="find-me-title">
        Find me
      </h2>
      <p class="small muted" id="find-me-privacy">
        Your picture is compared with this event’s photos on the photographer’s own computer, then forgotten: it is
        never stored or shared.
      </p>
      <label class={`btn btn-primary${busy ? ' disabled' : ''}`}>
        Take a selfie or choose a photo
        <input
          type="file"
          accept="image/*"
          capture="user"
          class="sr-only"
          aria-describedby="find-me-privacy"
          disabled={busy}
          onChange={(e) => {
            const input = e.currentTarget;
            void search(input.files?.[0]).finally(() => {
              input.value = '';
            });
          }}
        />
      </label>
      {busy && <Spinner label="Looking for you…" />}
      {error && <ErrorBox error={error} />}
      {found && found.length === 0 && <Notice role="status">No photos of you were found yet.</Notice>}
      {found && found.length > 0 && (
        <>
          <p role="status" class="find-me-count">
            {plural(found.length, 'photo')} of you
          </p>
          <PhotoGrid photos={found.map(toGrid)} onOpen={(i) => onOpen(found, i)} />
        </>
      )}
    </section>
  );
}
