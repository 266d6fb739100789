/**
 * The owner's takedown queue (docs/contract.md, "Takedown requests"): each open request with the
 * photo, the reason and message, and one-tap decisions. A phone is enough: open, look, tap.
 */
import { useEffect, useState } from 'preact/hooks';
import { Notice, useTitle } from '../components/common.js';
import { adminApi, asFile, type GetAnswer, ok, raw } from '../lib/api.js';
import { showToast } from '../lib/toast.js';

type Takedown = GetAnswer<'/api/takedowns'>['takedowns'][number];

const REASONS = { me: 'The person in the photo', copyright: 'Copyright', other: 'Other' };

/**
 * The thumbnail needs the admin token, so it is fetched, not linked. It is the takedown's own
 * photo route (the `thumbnail` URL the list gives, `GET /api/takedowns/{id}/photo`).
 */
function AdminThumb({ id, alt }: { id: string; alt: string }) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let objectUrl = '';
    raw(adminApi.GET('/api/takedowns/{id}/photo', { params: { path: { id } }, ...asFile }))
      .then((res) => res.blob())
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => setSrc(''));
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  return src ? <img class="takedown-thumb" src={src} alt={alt} /> : <div class="takedown-thumb" aria-hidden="true" />;
}

export default function Takedowns() {
  useTitle('Takedown requests');
  const [status, setStatus] = useState<'open' | 'decided'>('open');
  const [list, setList] = useState<Takedown[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState('');

  const load = () =>
    ok(adminApi.GET('/api/takedowns', { params: { query: { status } } })).then(
      (r) => setList(r.takedowns),
      (err: Error) => setError(err.message),
    );
  useEffect(() => {
    setList(null);
    void load();
  }, [status]);

  const decide = async (t: Takedown, decision: 'remove' | 'restore') => {
    setBusy(t.id);
    try {
      const r = await ok(adminApi.POST('/api/takedowns/{id}', { params: { path: { id: t.id } }, body: { decision } }));
      const flagged = r.flaggedOrders.length ? ` Unpaid orders to settle: ${r.flaggedOrders.join(', ')}.` : '';
      showToast(
        decision === 'remove'
          ? `Photo #${t.photo.number} removed.${flagged}`
          : `Photo #${t.photo.number} is listed again.`,
      );
      await load();
    } catch (err) {
      showToast((err as Error).message, { kind: 'error' });
    } finally {
      setBusy('');
    }
  };

  return (
    <section aria-labelledby="takedowns-title">
      <h1 id="takedowns-title">Takedown requests</h1>
      <fieldset class="actions takedown-filter">
        <legend class="sr-only">Show</legend>
        <button type="button" class="btn btn-small" aria-pressed={status === 'open'} onClick={() => setStatus('open')}>
          Open
        </button>
        <button
          type="button"
          class="btn btn-small"
          aria-pressed={status === 'decided'}
          onClick={() => setStatus('decided')}
        >
          Decided
        </button>
      </fieldset>
      {error && <Notice kind="error">{error}</Notice>}
      {list?.length === 0 && <p class="muted">{status === 'open' ? 'No open requests.' : 'Nothing decided yet.'}</p>}
      <ul class="takedown-list">
        {list?.map((t) => (
          <li key={t.id} class="card takedown">
            {t.photo.thumbnail ? (
              <AdminThumb id={t.id} alt={`Photo #${t.photo.number}`} />
            ) : (
              <div class="takedown-thumb muted">removed</div>
            )}
            <div>
              <h2>
                Photo #{t.photo.number} · {t.eventName}
              </h2>
              <p>
                {REASONS[t.reason]} · {t.email} · {new Date(t.createdAt).toLocaleString()}
              </p>
              {t.message && <blockquote class="takedown-message">{t.message}</blockquote>}
              {t.status === 'open' ? (
                <div class="actions">
                  <button
                    type="button"
                    class="btn btn-primary"
                    disabled={busy === t.id}
                    onClick={() => decide(t, 'remove')}
                  >
                    Remove photo
                  </button>
                  <button
                    type="button"
                    class="btn btn-secondary"
                    disabled={busy === t.id}
                    onClick={() => decide(t, 'restore')}
                  >
                    Keep photo
                  </button>
                </div>
              ) : (
                <p>Decided: {t.decision === 'remove' ? 'removed' : 'kept'}</p>
              )}
              <p class="muted small">{t.hidden ? 'Hidden from the gallery now.' : 'Still shown in the gallery.'}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
