/**
 * The spreadsheet panel of the dashboard (`GET /api/admin/mirror`, polled every 10 s): how
 * many orders wait for the spreadsheet, the last error in words, and the rows and changes to
 * look at (conflicts, hand edits refused, unreadable rows, rows removed by hand). Nothing
 * shows when the mirror is off.
 */
import { useEffect } from 'preact/hooks';
import type { MirrorProblem } from '../lib/api-schema.js';
import { useApi } from '../lib/hooks.js';

const POLL_MS = 10_000;

const LISTS: { key: 'conflicts' | 'rejected' | 'unreadable' | 'removed' | 'duplicates'; title: string }[] = [
  { key: 'conflicts', title: 'Changed in the sheet and here (this value was kept)' },
  { key: 'rejected', title: 'Edits in the sheet that were not applied' },
  { key: 'unreadable', title: 'Rows that cannot be read' },
  { key: 'removed', title: 'Rows removed from the sheet' },
  { key: 'duplicates', title: 'Rows repeating an order' },
];

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString() : 'never');

export default function MirrorPanel() {
  const status = useApi('/api/admin/mirror', {}, { admin: true, keep: true });
  const { reload } = status;
  useEffect(() => {
    const t = setInterval(reload, POLL_MS);
    return () => clearInterval(t);
  }, [reload]);
  const s = status.data;
  if (!s?.enabled) return null;
  const waiting =
    s.pending === 1 ? '1 order waiting for the spreadsheet' : `${s.pending} orders waiting for the spreadsheet`;
  return (
    <section class={`mirror-panel${s.lastError ? ' mirror-panel-error' : ''}`} aria-label="Spreadsheet">
      <p>
        <strong>{s.pending === 0 ? 'Spreadsheet up to date' : waiting}</strong> · last sync {time(s.lastSyncAt)}
      </p>
      {s.lastError && (
        <p role="status">
          {s.lastError} <small>({time(s.lastErrorAt)})</small>
        </p>
      )}
      {LISTS.filter((l) => s[l.key].length > 0).map((l) => (
        <details key={l.key}>
          <summary>
            {l.title} ({s[l.key].length})
          </summary>
          <ul>
            {s[l.key].map((p: MirrorProblem) => (
              <li key={`${p.at}-${p.sheetRow}-${p.message}`}>
                {p.orderNumber && <a href={`/admin/orders/${encodeURIComponent(p.orderNumber)}`}>{p.orderNumber}</a>}{' '}
                {p.message}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}
