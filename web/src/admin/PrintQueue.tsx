/**
 * The print queue: every line of the paid orders not yet printed, grouped by event and size
 * with the copies to print; per batch "Print this batch" (to the booth's printer over IPP),
 * "Download this batch" (the print files as one ZIP) and "Mark printed" for exactly the lines
 * shown, and "Print" per line (docs/contract.md, "Fulfilment" and "Printing at the booth"). The
 * printers' state and the jobs in flight are shown above (Printers.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { adminApi, asFile, localUrl, ok } from '../lib/api.js';
import type { PrintQueueItem, PrintRequest } from '../lib/api-schema.js';
import { useApi } from '../lib/hooks.js';
import { showToast } from '../lib/toast.js';
import { PrintersPanel, usePrinterPolling } from './Printers.js';
import { onAdminError } from './session.js';
import { downloadFile } from './shared.js';

/** Sends lines to the printer; the answer in words. */
async function printLines(itemIds: string[]): Promise<string> {
  const body: PrintRequest = { itemIds };
  const res = await ok(adminApi.POST('/api/print-queue/print', { body }));
  const refused = res.notSent.map((n) => `${n.itemId}: ${n.reason}`);
  return refused.length > 0 ? `${res.message} (${refused.join('; ')})` : res.message;
}

/** Whether the line is with a printer already (not sent again by "Print this batch"). */
function waitingOnPrinter(items: PrintQueueItem[], id: string): boolean {
  return items.some((i) => i.itemId === id && i.printing !== null);
}

export default function PrintQueue() {
  useTitle('Print queue');
  const queue = useApi('/api/print-queue', {}, { admin: true });
  const printers = useApi('/api/printers', {}, { admin: true });
  usePrinterPolling(printers);
  const canPrint = (printers.data?.printers.length ?? 0) > 0;
  // While jobs print, the queue follows them (a completed job takes its line out of the queue).
  const printing = (printers.data?.jobs.length ?? 0) > 0;
  useEffect(() => {
    if (printing) queue.reload();
  }, [printers.data]);
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    if (queue.error) onAdminError(queue.error);
  }, [queue.error]);

  if (queue.error && !queue.data) return <ErrorBox error={queue.error} onRetry={queue.reload} />;
  if (!queue.data) return <Spinner label="Loading the print queue…" />;

  // One batch per event and size (a printer is loaded with one paper size; events are kept
  // apart), in the order their oldest line came in.
  const batches = new Map<string, PrintQueueItem[]>();
  for (const item of queue.data.items) {
    const key = `${item.eventSlug}\u0000${item.size}`;
    batches.set(key, [...(batches.get(key) ?? []), item]);
  }
  const events = new Set(queue.data.items.map((i) => i.eventSlug)).size;

  const act = async (key: string, what: () => Promise<string>) => {
    setBusy(key);
    setError('');
    try {
      showToast(await what());
    } catch (err) {
      setError(onAdminError(err).message);
    } finally {
      setBusy('');
    }
  };

  return (
    <>
      <div class="admin-head">
        <h1>Print queue</h1>
        <button type="button" class="btn btn-secondary btn-small" onClick={queue.reload}>
          Refresh
        </button>
      </div>
      <p class="muted">
        Lines of paid orders not yet printed, oldest order first, one batch per event and size. Download a batch, print
        it, then mark it printed.
      </p>
      {error && (
        <Notice kind="error" role="alert">
          {error}
        </Notice>
      )}
      {printers.data && <PrintersPanel printers={printers.data} />}
      {batches.size === 0 && <Notice>Nothing waits to be printed.</Notice>}
      {[...batches.entries()].map(([key, items]) => {
        const { eventSlug, size } = items[0] as PrintQueueItem;
        const ids = items.map((i) => i.itemId);
        const copies = items.reduce((n, i) => n + i.quantity, 0);
        const slug = `${eventSlug}-${size}`.replace(/[^A-Za-z0-9-]+/g, '-');
        return (
          <section key={key} class="card print-batch" aria-labelledby={`batch-${slug}`}>
            <div class="admin-head">
              <h2 id={`batch-${slug}`}>
                {size} · {copies} {copies === 1 ? 'copy' : 'copies'} · {items.length}{' '}
                {items.length === 1 ? 'file' : 'files'}
                {events > 1 && <span class="muted small"> · {eventSlug}</span>}
              </h2>
              <div class="actions">
                {canPrint && (
                  <button
                    type="button"
                    class="btn btn-primary"
                    disabled={busy !== ''}
                    onClick={() =>
                      act(`print-${key}`, async () => {
                        const free = ids.filter((id) => !waitingOnPrinter(items, id));
                        if (free.length === 0) return 'Every line of this batch is with a printer already';
                        const message = await printLines(free);
                        queue.reload();
                        printers.reload();
                        return message;
                      })
                    }
                  >
                    {busy === `print-${key}` ? 'Sending…' : 'Print this batch'}
                  </button>
                )}
                <button
                  type="button"
                  class={canPrint ? 'btn btn-secondary' : 'btn btn-primary'}
                  disabled={busy !== ''}
                  onClick={() =>
                    act(`dl-${key}`, async () => {
                      const query = { eventSlug, size, itemIds: ids.join(',') };
                      await downloadFile(
                        adminApi.GET('/api/print-files', { params: { query }, ...asFile }),
                        `prints-${slug}.zip`,
                      );
                      return `${items.length} ${size} print files downloaded`;
                    })
                  }
                >
                  {busy === `dl-${key}` ? 'Preparing…' : 'Download this batch'}
                </button>
                <button
                  type="button"
                  class="btn btn-secondary"
                  disabled={busy !== ''}
                  onClick={() =>
                    act(`mark-${key}`, async () => {
                      const res = await ok(adminApi.POST('/api/print-queue/printed', { body: { itemIds: ids } }));
                      queue.reload();
                      return res.message;
                    })
                  }
                >
                  Mark printed
                </button>
              </div>
            </div>
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Photo</th>
                  <th scope="col">Order</th>
                  <th scope="col" class="num">
                    Copies
                  </th>
                  <th scope="col">File</th>
                  {canPrint && <th scope="col">Printer</th>}
                </tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.itemId}>
                    <td>
                      <div class="print-line-photo">
                        {i.photo && <img src={localUrl(i.photo.thumbnail)} alt="" width={48} loading="lazy" />}
                        <span>#{i.photoNumber}</span>
                      </div>
                    </td>
                    <td>
                      <a href={`/admin/orders/${encodeURIComponent(i.orderNumber)}`} class="mono order-ref">
                        {i.orderNumber}
                      </a>
                    </td>
                    <td class="num">{i.quantity}</td>
                    <td class="mono small file-path">{i.fileName}</td>
                    {canPrint && (
                      <td>
                        {i.printing ? (
                          <span class="badge badge-info">
                            {i.printing.state === 'sending' ? 'sending' : (i.printing.printerState ?? 'queued')} on{' '}
                            {i.printing.printer}
                          </span>
                        ) : (
                          <button
                            type="button"
                            class="btn btn-secondary btn-small"
                            disabled={busy !== ''}
                            aria-label={`Print ${i.itemId}`}
                            onClick={() =>
                              act(`print-${i.itemId}`, async () => {
                                const message = await printLines([i.itemId]);
                                queue.reload();
                                printers.reload();
                                return message;
                              })
                            }
                          >
                            Print
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        );
      })}
    </>
  );
}
