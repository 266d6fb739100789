/**
 * The one module that imports `web-push`: a message encrypted for one subscription
 * (aes128gcm) and signed (VAPID), posted to its push service; and new VAPID key pairs.
 * A refusal by the push service rejects with an error carrying its `statusCode` (and
 * `headers`, for Retry-After).
 * web-push is loaded on first use (a message, or the first start's key pair), not at every
 * start-up (about 0.1 s of CPU).
 */
import type { Agent } from 'node:https';

const webpush = async () => (await import('web-push')).default;

export type VapidKeys = { publicKey: string; privateKey: string };

export type WebPushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

export type WebPushOptions = {
  vapid: VapidKeys & { subject: string };
  ttlSeconds: number;
  timeoutMs: number;
  /** Every connection goes through it (egress.ts: public addresses only). */
  agent: Agent;
};

/** Posts `body` to `target`'s push service, at normal urgency. */
export async function sendWebPush(target: WebPushTarget, body: string, opts: WebPushOptions): Promise<void> {
  await (await webpush()).sendNotification(target, body, {
    vapidDetails: opts.vapid,
    TTL: opts.ttlSeconds,
    urgency: 'normal',
    timeout: opts.timeoutMs,
    agent: opts.agent,
  });
}

/** A new VAPID key pair (P-256, URL-safe base64). */
export async function generateVapidKeys(): Promise<VapidKeys> {
  return (await webpush()).generateVAPIDKeys();
}
