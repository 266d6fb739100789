/**
 * The intake panel (`GET /api/admin/intake`): photos still being copied or inspected, and
 * files that stayed broken (a cut-off copy, not a photo), which the gallery never lists.
 * Looked at again every few seconds while the page is open.
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox } from '../components/common.js';
import { type ApiError, adminApi, ok } from '../lib/api.js';
import type { IntakeStatus } from '../lib/api-schema.js';
import { onAdminError } from './session.js';

const POLL_MS = 5000;

export function IntakePanel() {
  const [status, setStatus] = useState<IntakeStatus | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const s = await ok(adminApi.GET('/api/admin/intake'));
        if (stop) return;
        setStatus(s);
        setError(undefined);
      } catch (err) {
        if (!stop) setError(onAdminError(err) as ApiError);
      }
      if (!stop) timer = setTimeout(load, POLL_MS);
    };
    void load();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, []);

  if (error) return <ErrorBox error={error} />;
  if (!status) return null;
  const busy = status.pending + status.inspecting;
  return (
    <section class="card intake" aria-labelledby="intake-title" data-intake>
      <h2 id="intake-title">Photo intake</h2>
      <p class="muted small" role="status">
        {busy > 0
          ? `${busy} photo${busy === 1 ? '' : 's'} arriving (being copied or prepared); they appear in the gallery in a moment.`
          : status.broken.length > 0
            ? 'Every other photo copied in is in the gallery.'
            : 'Every photo copied in is in the gallery.'}
      </p>
      {status.broken.length > 0 && (
        <>
          <p>
            <strong>
              {status.broken.length} file{status.broken.length === 1 ? '' : 's'} could not be read
            </strong>{' '}
            and {status.broken.length === 1 ? 'is' : 'are'} not shown. The reason is beside each: a copy cut off is
            copied again from the card, a photo the server cannot decode is exported as JPEG.
          </p>
          <ul class="intake-broken">
            {status.broken.map((b) => (
              <li key={`${b.event}/${b.path}`}>
                <code>
                  {b.event}/{b.path}
                </code>{' '}
                <span class="muted small">{b.reason}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
