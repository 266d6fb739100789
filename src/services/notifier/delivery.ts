/**
 * Delivery: a draft becomes the message (a receipt gets its two labels attached) and goes
 * through the transport chain. This is the CPU-heavy part of mail (label rendering, MIME
 * encoding); the plugin runs it in a worker thread (mail-thread.ts), tests may run it inline.
 */
import type { LabelRenderer } from '../labels/types.js';
import { sendThroughChain } from './chain.js';
import type { MailDraft, OutgoingMail } from './message.js';
import type { MailTransport, TransportName } from './transports/transport.js';

/**
 * Delivers a draft, or throws. When `signal` aborts (shutdown cutting deliveries off) it stops
 * at the next step and throws; a delivery that threw was not (knowingly) delivered.
 */
export type Deliver = (draft: MailDraft, signal?: AbortSignal) => Promise<TransportName>;

/** The draft with its attachments rendered. */
export async function completeMail(draft: MailDraft, labels: LabelRenderer): Promise<OutgoingMail> {
  const { labelsOf, returnAddress: _returnAddress, ...rest } = draft;
  if (!labelsOf) return { ...rest, attachments: [] };
  const [png, docx] = await Promise.all([labels.png(labelsOf), labels.docx(labelsOf)]);
  return {
    ...rest,
    attachments: [png, docx].map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
  };
}

export function createDelivery(labels: LabelRenderer, transports: readonly MailTransport[]): Deliver {
  return async (draft, signal) => {
    signal?.throwIfAborted();
    const mail = await completeMail(draft, labels);
    return sendThroughChain(transports, mail, signal);
  };
}
