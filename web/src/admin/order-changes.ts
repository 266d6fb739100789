/**
 * Changes to one order from its page: a change runs with the page busy, its answer becomes the
 * order shown, and a change refused because prints are missing (409 NOT_PRINTED) is kept with
 * the same change with printAll, for the "Mark all printed and …" offer.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../lib/api.js';
import type { AdminOrder as Order } from '../lib/api-schema.js';
import { showToast } from '../lib/toast.js';
import { onAdminError } from './session.js';

/** A change refused because prints are missing (409 NOT_PRINTED): what to say, and the same change with printAll. */
export type MissingPrints = {
  doing: string;
  lines: { itemId: string; photoNumber: string; size: string; quantity: number }[];
  retry: () => void;
};

/** Runs a change; `retryAllPrinted` is the same change with printAll, offered when prints are missing. */
export type RunChange = (
  what: () => Promise<Order>,
  done?: (o: Order) => string,
  retryAllPrinted?: { doing: string; again: () => void },
) => Promise<void>;

/** The lines a NOT_PRINTED answer names, when it is one. */
function notPrintedLines(err: unknown): MissingPrints['lines'] | null {
  if (!(err instanceof ApiError) || err.code !== 'NOT_PRINTED') return null;
  const d = err.detailsJson() as { notPrinted?: MissingPrints['lines'] } | undefined;
  return d?.notPrinted ?? [];
}

export function useOrderChanges(setOrder: (o: Order) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>('');
  const [missing, setMissing] = useState<MissingPrints | null>(null);
  const run: RunChange = async (what, done, retryAllPrinted) => {
    setBusy(true);
    setError('');
    setMissing(null);
    try {
      const o = await what();
      setOrder(o);
      if (done) showToast(done(o));
    } catch (err) {
      const lines = notPrintedLines(err);
      if (lines && retryAllPrinted) setMissing({ doing: retryAllPrinted.doing, lines, retry: retryAllPrinted.again });
      else setError(onAdminError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, missing, run };
}
