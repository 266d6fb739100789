/**
 * The print queue: every line of the paid orders not yet printed, grouped by event and size
 * with the copies to print; per batch "Download this batch" (the print files as one ZIP) and "Mark
 * printed" for exactly the lines shown (docs/contract.md, "Fulfilment").
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { localUrl, sendJson } from '../lib/api.js';
import type { PrintQueueItem, PrintQueue as Queue } from '../lib/api-schema.js';
import { useFetch } from '../lib/hooks.js';
import { showToast } from '../lib/toast.js';
import { onAdminError } from './session.js';
import { downloadFile } from './shared.js';

export default function PrintQueue() {
  useTitle('Print queue');
  const queue = useFetch<Queue>('/api/print-queue', { admin: true });
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
                <button
                  type="button"
                  class="btn btn-primary"
                  disabled={busy !== ''}
                  onClick={() =>
                    act(`dl-${key}`, async () => {
                      await downloadFile(
                        `/api/print-files?eventSlug=${encodeURIComponent(eventSlug)}&size=${encodeURIComponent(size)}&itemIds=${ids.map(encodeURIComponent).join(',')}`,
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
                      const res = await sendJson<{ message: string }>(
                        'POST',
                        '/api/print-queue/printed',
                        { itemIds: ids },
                        { admin: true },
                      );
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
