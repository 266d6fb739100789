/**
 * The attendee's photo codes, kept on the device (localStorage): the code, the URL its QR
 * holds and the QR itself (SVG), so the code shows at the booth even when the venue's network
 * is slow. The newest first; a few older ones are kept (a second day, a code for a friend).
 */
import { api, ok } from './api.js';
import type { PhotoCode } from './api-schema.js';
import { browserPushSubscription, pushSupported } from './push.js';
import { persistent } from './store.js';

export type MyCode = PhotoCode & { createdAt: string };

const isCodes = (v: unknown): v is MyCode[] =>
  Array.isArray(v) && v.every((c) => typeof c === 'object' && c !== null && typeof (c as MyCode).code === 'string');

export const myCodes = persistent<MyCode[]>('cps.photo-codes.v1', [], { valid: isCodes });

const KEEP = 5;

/** Asks the server for a new code (`POST /api/finder`) and keeps it on the device. */
export async function getNewCode(captchaToken: string | undefined): Promise<MyCode> {
  const issued = await ok(api.POST('/api/finder', { body: captchaToken ? { captchaToken } : {} }));
  const code = { ...issued, createdAt: new Date().toISOString() };
  myCodes.set([code, ...myCodes.get().filter((c) => c.code !== code.code)].slice(0, KEEP));
  return code;
}

/** `K7M2Q9TX` as `K7M2-Q9TX`, as printed on the cards. */
export const spacedCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

/** The QR as an image source (the SVG comes from the server; an <img> never runs it). */
export const qrImageSrc = (svg: string): string => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export const canPush = pushSupported;

/** Be told when photos of `code` arrive: this browser's push subscription, or an email. */
export async function subscribeToCode(code: string, to: { email: string } | 'push'): Promise<string> {
  const body = to === 'push' ? await browserPushSubscription() : to;
  const params = { path: { code } };
  return (await ok(api.POST('/api/finder/{code}/subscribe', { params, body }))).message;
}
