/** The front page: every event, newest first, with a few thumbnails and whether it takes orders. */
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { localUrl } from '../lib/api.js';
import { formatDate, formatDeadline, plural } from '../lib/format.js';
import { closedMessage, useApi } from '../lib/hooks.js';
import { eventPath } from '../lib/router.js';

export default function Events() {
  useTitle('');
  const { data, error, reload } = useApi('/event');
  return (
    <main class="page" id="main">
      <h1>Event photos</h1>
      <p class="lead">Find your photos, pick your favourites and order prints — shipped home or ready at the booth.</p>
      <p class="code-callout">
        Being photographed? <a href="/code">Get your photo code</a>: show it to the photographer first, and your photos
        find their way to you.
      </p>
      <p>
        Ordered already? <a href="/order">Find your order</a> to see whether it is paid, shipped or ready.
      </p>
      {error && !data && <ErrorBox error={error} onRetry={reload} />}
      {!data && !error && <Spinner label="Loading events…" />}
      {data && data.length === 0 && <Notice>No events yet. Photos appear here as soon as they are uploaded.</Notice>}
      {data && data.length > 0 && (
        <ul class="event-list">
          {data.map((ev) => (
            <li key={ev.code}>
              <a class="event-card" href={eventPath(ev.code)}>
                <div class="event-thumbs" aria-hidden="true">
                  {ev.thumbnails.slice(0, 4).map((t) => (
                    <img key={t} src={localUrl(t)} alt="" loading="lazy" decoding="async" width={200} height={200} />
                  ))}
                </div>
                <div class="event-body">
                  <h2>{ev.name}</h2>
                  <p class="muted">
                    {[formatDate(ev.date), plural(ev.photoCount, 'photo')].filter(Boolean).join(' · ')}
                  </p>
                  {ev.status.active ? (
                    <p class="badge badge-ok badge-wrap">
                      Ordering open
                      {ev.status.deadline ? ` until ${formatDeadline(ev.status.deadline)}` : ''}
                    </p>
                  ) : (
                    <p class="badge badge-muted" title={closedMessage(ev.status)}>
                      Ordering closed
                    </p>
                  )}
                </div>
              </a>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
