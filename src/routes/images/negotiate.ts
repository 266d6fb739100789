/** WebP when `Accept` names `image/webp`, JPEG otherwise (so image responses vary with `Accept`). */
import type { ImageFormat } from '../../services/images/types.js';

export function negotiateFormat(accept: string | undefined): ImageFormat {
  if (!accept || accept.indexOf('image/webp') === -1) return 'jpeg';
  // `image/webp;q=0` refuses it explicitly.
  return /image\/webp\s*;\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$)/.test(accept) ? 'jpeg' : 'webp';
}
