/**
 * Web push: the service worker (/sw.js) shows what the server sends. Subscribing needs a
 * browser with the Push API, a secure context (https or localhost) and the visitor's consent.
 */
import { getJson, sendJson } from './api.js';

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

/** Asks for permission and subscribes this browser: the subscription's JSON, to register with the server. */
export async function browserPushSubscription(): Promise<PushSubscriptionJSON> {
  if (!pushSupported()) throw new Error('This browser cannot receive notifications from this site.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site in your browser settings.');
  const reg = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const { publicKey } = await getJson<{ publicKey: string }>('/api/push/public-key');
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  return sub.toJSON();
}

/** Subscribes, and registers the subscription with the server for order events. */
export async function subscribePush(extra: { orderNumber?: string; email?: string }, admin = false): Promise<string> {
  const sub = await browserPushSubscription();
  const res = await sendJson<{ message: string }>('POST', '/api/push/subscribe', { ...sub, ...extra }, { admin });
  return res.message;
}
