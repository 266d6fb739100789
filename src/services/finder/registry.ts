/**
 * The registry of issued photo codes the finder asks (finder.ts), over the store's photo
 * codes port. A code once issued stays issued, so a "yes" is remembered for good (the
 * finder's lookups of known codes cost no store read); a "no" is asked again each time, since
 * another server process may issue the code meanwhile.
 */
import { LRUCache } from 'lru-cache';
import { entryBound } from '../../lib/lru.js';
import type { PhotoCodesPort } from '../store/ports/photo-codes.js';
import type { PhotoCodeRegistry } from './finder.js';

export function createPhotoCodeRegistry(
  port: Pick<PhotoCodesPort, 'isIssued'>,
  remember = 100_000,
): PhotoCodeRegistry & { remember(code: string): void } {
  const issued = new LRUCache<string, true>(entryBound(remember));
  return {
    async isIssued(code) {
      if (issued.has(code)) return true;
      const yes = await port.isIssued(code);
      if (yes) issued.set(code, true);
      return yes;
    },
    remember(code) {
      issued.set(code, true);
    },
  };
}
