/**
 * Web push: the service worker (/sw.js) shows what the server sends. Subscribing needs a
 * browser with the Push API, a secure context (https or localhost) and the visitor's consent.
 */
import { adminApi, api, ok } from './api.js';
import type { PushSubscribeRequestInput } from './api-schema.js';

export function pushSupported(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const pad = '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob((base64url + pad).replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** A browser's subscription as the server takes it (`POST /api/push/subscribe`'s body). */
export type BrowserSubscription = Pick<PushSubscribeRequestInput, 'endpoint' | 'expirationTime' | 'keys'>;

/** Asks for permission and subscribes this browser: the subscription's JSON, to register with the server. */
export async function browserPushSubscription(): Promise<BrowserSubscription> {
  if (!pushSupported()) throw new Error('This browser cannot receive notifications from this site.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site in your browser settings.');
  const reg = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const { publicKey } = await ok(api.GET('/api/push/public-key'));
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const { endpoint, expirationTime, keys } = sub.toJSON();
  // A push subscription always carries both keys; a browser that gives none can't be sent to.
  if (!endpoint || !keys?.p256dh || !keys.auth)
    throw new Error('This browser cannot receive notifications from this site.');
  return { endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** Subscribes, and registers the subscription with the server for order events. */
export async function subscribePush(extra: { orderNumber?: string; email?: string }, admin = false): Promise<string> {
  const sub = await browserPushSubscription();
  const client = admin ? adminApi : api;
  const res = await ok(client.POST('/api/push/subscribe', { body: { ...sub, ...extra } }));
  return res.message;
}
