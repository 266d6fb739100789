/**
 * Which encoding an image request gets: WebP when the `Accept` header names `image/webp`
 * (every current browser sends it for images), JPEG otherwise. The answer varies with
 * `Accept`, so image responses carry `Vary: Accept` and each encoding is cached apart.
 */
import type { ImageFormat } from '../../services/images/types.js';

export function negotiateFormat(accept: string | undefined): ImageFormat {
  if (!accept || accept.indexOf('image/webp') === -1) return 'jpeg';
  // `image/webp;q=0` refuses it explicitly.
  return /image\/webp\s*;\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$)/.test(accept) ? 'jpeg' : 'webp';
}
