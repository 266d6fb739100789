/**
 * The booth's printers on the print queue page (docs/contract.md, "Printing at the booth"):
 * each printer's state as it reports it over IPP (out of paper, ink low, not answering), and
 * the jobs in flight, refreshed every few seconds while the page is open.
 */
import { useEffect } from 'preact/hooks';
import type { Printer, Printers, PrintJob } from '../lib/api-schema.js';
import type { Loaded } from '../lib/hooks.js';

const POLL_MS = 3000;

/** IPP `printer-state-reasons` a photographer acts on, in words. */
const REASONS: Record<string, string> = {
  'media-empty': 'Out of paper',
  'media-needed': 'Load paper',
  'media-low': 'Paper low',
  'media-jam': 'Paper jam',
  'marker-supply-empty': 'Out of ink / ribbon',
  'marker-supply-low': 'Ink / ribbon low',
  'toner-empty': 'Out of toner',
  'toner-low': 'Toner low',
  'cover-open': 'Cover open',
  'input-tray-missing': 'Paper tray missing',
  'marker-waste-full': 'Waste tank full',
  'marker-waste-almost-full': 'Waste tank almost full',
  paused: 'Paused',
  offline: 'Offline',
};

const STATE_BADGE: Record<Printer['state'], string> = {
  idle: 'badge-ok',
  processing: 'badge-info',
  stopped: 'badge-warn',
  unreachable: 'badge-warn',
};

export function usePrinterPolling(printers: Loaded<Printers>): void {
  useEffect(() => {
    const t = setInterval(printers.reload, POLL_MS);
    return () => clearInterval(t);
  }, [printers.reload]);
}

function jobText(j: PrintJob): string {
  if (j.state === 'sending') return 'sending…';
  if (j.state === 'queued') return j.printerState === 'processing' ? 'printing' : (j.printerState ?? 'queued');
  return j.state;
}

export function PrintersPanel({ printers }: { printers: Printers }) {
  if (printers.printers.length === 0) {
    return (
      <p class="muted small">
        No printer is set up: print from the downloaded files, or name the booth’s printer in PRINTERS (see the
        fulfilment guide) to print from here.
      </p>
    );
  }
  return (
    <section class="card" aria-labelledby="printers-title">
      <h2 id="printers-title">Printers</h2>
      <ul class="printer-list">
        {printers.printers.map((p) => (
          <li key={p.name} class="printer-row">
            <strong>{p.name}</strong> <span class="muted small">{p.sizes.join(', ')}</span>{' '}
            <span class={`badge ${STATE_BADGE[p.state]}`}>{p.state === 'unreachable' ? 'not answering' : p.state}</span>
            {p.stateReasons.map((r) => (
              <span key={r} class="badge badge-warn">
                {REASONS[r] ?? r}
              </span>
            ))}
            {p.queuedJobs ? <span class="muted small"> · {p.queuedJobs} in its queue</span> : null}
            {p.message && p.state !== 'idle' && <div class="muted small">{p.message}</div>}
          </li>
        ))}
      </ul>
      {printers.jobs.length > 0 && (
        <>
          <h3>Printing now</h3>
          <ul class="printer-jobs">
            {printers.jobs.map((j) => (
              <li key={j.id} class="printer-row">
                <span class="mono">{j.itemId}</span> · {j.size} ×{j.copies} on {j.printer}
                {j.jobId !== null && <span class="muted small"> (job {j.jobId})</span>} · {jobText(j)}
                {j.auto && <span class="badge badge-muted">auto</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {printers.recent.some((j) => j.state !== 'completed') && (
        <>
          <h3>Not printed</h3>
          <ul class="printer-jobs">
            {printers.recent
              .filter((j) => j.state !== 'completed')
              .map((j) => (
                <li key={j.id} class="printer-row">
                  <span class="mono">{j.itemId}</span> · {j.state} on {j.printer}
                  {j.reason && <span class="muted small"> — {j.reason}</span>}
                </li>
              ))}
          </ul>
        </>
      )}
    </section>
  );
}
