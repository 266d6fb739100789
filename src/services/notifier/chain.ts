/**
 * SendGrid, then SMTP (or the .eml folder when neither is configured): the first transport
 * that takes the message wins; when all refuse, the error names each one's reason.
 */
import type { OutgoingMail } from './message.js';
import type { MailTransport, TransportName } from './transports/transport.js';

export class AllTransportsFailed extends Error {
  override name = 'AllTransportsFailed';
  constructor(readonly failures: { transport: TransportName; error: string }[]) {
    super(failures.map((f) => `${f.transport}: ${f.error}`).join('; '));
  }
}

/** A short, single-line description of why a transport refused (SendGrid's error list included). */
export function describeError(err: unknown): string {
  const e = err as { message?: string; code?: string | number; response?: { body?: unknown } };
  let text = e?.message ?? String(err);
  const body = e?.response?.body as { errors?: { message?: string }[] } | undefined;
  if (body?.errors?.length) text += ` (${body.errors.map((x) => x.message).join(', ')})`;
  return text.replace(/\s+/g, ' ').slice(0, 500);
}

export async function sendThroughChain(
  transports: readonly MailTransport[],
  mail: OutgoingMail,
  signal?: AbortSignal,
): Promise<TransportName> {
  const failures: { transport: TransportName; error: string }[] = [];
  for (const transport of transports) {
    // Cut off: no next transport is tried (the job stays queued).
    signal?.throwIfAborted();
    try {
      await transport.send(mail, signal);
      return transport.name;
    } catch (err) {
      if (signal?.aborted) throw err;
      failures.push({ transport: transport.name, error: describeError(err) });
    }
  }
  throw new AllTransportsFailed(failures);
}
