/**
 * Worker-thread entry: delivers drafts (a receipt's labels, MIME encoding, SendGrid/SMTP or
 * .eml), CPU work that would hold the main event loop; see mail-thread-client.ts. Each call
 * carries its own set-up, so one thread serves every app in the process. Transports are made
 * per message: nothing pooled goes stale across an outage. A cancelled call is dropped or
 * aborted at its next step (no file written after); a network send under way can't be stopped
 * here, so the client stops the whole thread if it does not answer in time.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { answerCalls } from '../../lib/thread.js';
import { createLabelRenderer } from '../labels/renderer.js';
import type { LabelRenderer } from '../labels/types.js';
import { describeError } from './chain.js';
import { createDelivery } from './delivery.js';
import type { MailDraft } from './message.js';
import { createTransport } from './transports/create.js';
import type { TransportSpec } from './transports/specs.js';
import type { TransportName } from './transports/transport.js';

export type MailThreadSetup = { returnAddress: string; transports: TransportSpec[] };
export type MailThreadRequest = { setup: MailThreadSetup; draft: MailDraft };
export type MailThreadReply =
  | { ok: true; via: TransportName }
  /** `cancelled`: cut off (nothing more was written); else a failure to retry. */
  | { ok: false; error: string; cancelled: boolean };

if (!parentPort) throw new Error('mail-thread must run in a worker thread');

/** Mail is background work: on Linux, this thread runs at nice 10, so requests win the CPU. */
export const MAIL_THREAD_NICE = 10;
try {
  // /proc/thread-self → "<pid>/task/<tid>"; setpriority() on a thread id affects that thread only.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, MAIL_THREAD_NICE);
} catch {
  // Not Linux, or not allowed: normal priority.
}

const renderers = new Map<string, LabelRenderer>();
function labelsFor(returnAddress: string): LabelRenderer {
  let r = renderers.get(returnAddress);
  if (!r) {
    if (renderers.size >= 16) renderers.clear();
    r = createLabelRenderer({ returnAddress });
    renderers.set(returnAddress, r);
  }
  return r;
}

// One delivery at a time (answerCalls): rendering a label keeps this thread and a libvips
// thread busy, and on a small machine (2 cores) doing several at once would starve the main
// thread of CPU.
answerCalls<MailThreadRequest, MailThreadReply>(async (req, signal) => {
  const transports = req.setup.transports.map(createTransport);
  try {
    const labels = labelsFor(req.draft.returnAddress ?? req.setup.returnAddress);
    const via = await createDelivery(labels, transports)(req.draft, signal);
    return { ok: true, via };
  } catch (err) {
    return { ok: false, error: describeError(err), cancelled: signal.aborted };
  } finally {
    await Promise.all(transports.map((t) => t.close().catch(() => {})));
  }
});
