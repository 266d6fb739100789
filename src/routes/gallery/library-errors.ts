/**
 * The gallery's one answer to "the photo library does not know this (yet)": 503 with
 * `Retry-After` while it is still being indexed (only right after a start-up on a large library,
 * see the photos plugin), else 404 for an unknown event.
 */
import { appError } from '../../errors/catalogue.js';

export const notIndexedYet = () =>
  appError('SERVICE_UNAVAILABLE', { details: 'The photo library is being indexed', headers: { 'Retry-After': '5' } });

/** An event the library does not list: 503 while it is being indexed, else 404 EVENT_NOT_FOUND. */
export const unknownEvent = (library: { readonly isReady: boolean }, eventCode: string) =>
  library.isReady ? appError('EVENT_NOT_FOUND', { details: { eventCode } }) : notIndexedYet();
