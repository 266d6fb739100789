/**
 * The inspection of a new photo (services/photos/library.ts calls it once per new file):
 * one decode of the original, downscaled to SCAN_SIZE px on load (libvips shrinks a JPEG
 * while decoding it, 1/8 for a 24 MP original), from which
 *  - the photo code it may show is read (in the QR thread: qr-reader.ts), and
 *  - unless it is a code frame (never shown), its thumbnails are made and cached, so the
 *    first visitor does not wait for them.
 * It runs in the render queue's background lane: after every render a visitor waits for.
 */
import { decodeFitted } from '../../adapters/sharp.js';
import { photoCodeFromQr } from '../../domain/photo-code.js';
import type { ImageService } from '../images/types.js';
import type { Inspector, InspectTarget } from '../photos/inspection.js';
import { decodeFailure } from './decode-failure.js';
import { QrReader } from './qr-reader.js';

/**
 * The long edge of the copy searched for a code and made into thumbnails: the largest at which
 * a 24 MP original still decodes at 1/8 (sharp shrinks a JPEG by 8 only from 9 times the size
 * asked for; 1/4 cost a quarter more per photo), and at which a phone screen held up to the
 * camera reads as at 720 px (bench/RESULTS.md).
 * @public bench/intake.bench.ts reads it from the built module (dist/), out of knip's sight.
 */
export const SCAN_SIZE = 666;

export type InspectorOptions = {
  images: Pick<ImageService, 'background' | 'storeThumbnails'>;
  thumbnailSize: number;
};

export type ClosableInspector = {
  inspect: Inspector;
  /** Refuses new inspections and waits for those under way (their cache writes included). */
  close(): Promise<void>;
};

export function createInspector(opts: InspectorOptions): ClosableInspector {
  const size = Math.max(SCAN_SIZE, opts.thumbnailSize);
  const running = new Set<Promise<unknown>>();
  const qr = new QrReader();
  let closed = false;
  const inspect: Inspector = (target: InspectTarget) => {
    if (closed) return Promise.reject(new Error('the server is shutting down'));
    const run = opts.images.background(async () => {
      if (closed) throw new Error('the server is shutting down');
      const pixels = await decodeFitted(target.file, { size, pixels: 'rgba' }).catch(async (err: unknown) => {
        // Reported as the reason the photo is not listed (the admin's intake panel).
        throw new Error(await decodeFailure((err as Error).message, target.file));
      });
      const code = findCode(await qr.read(pixels.data, pixels.width, pixels.height));
      if (code === null) await opts.images.storeThumbnails(target, { ...pixels, channels: 4 });
      return { code };
    });
    running.add(run);
    void run.catch(() => undefined).finally(() => running.delete(run));
    return run;
  };
  return {
    inspect,
    async close() {
      closed = true;
      await Promise.allSettled([...running]);
      await qr.close();
    },
  };
}

function findCode(texts: string[]): string | null {
  for (const text of texts) {
    const code = photoCodeFromQr(text);
    if (code) return code;
  }
  return null;
}
