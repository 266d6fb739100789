/**
 * Find me by face in an event's settings (docs/contract.md, "Find me by face"): the switch,
 * and while it is on, how far indexing has come (`GET /api/faces/status`), looked at again
 * every few seconds until every photo is done.
 */
import { useEffect, useState } from 'preact/hooks';
import { adminApi, ok } from '../lib/api.js';
import type { FaceStatus } from '../lib/api-schema.js';

const POLL_MS = 5000;

export function FaceSearchSwitch({
  id,
  checked,
  onChange,
}: {
  id: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label class="switch">
      <input
        type="checkbox"
        checked={checked}
        aria-describedby={id}
        onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
      />
      <span>Find me by face</span>
    </label>
  );
}

/** What face search is doing for the event; `on`: the saved setting. */
export function FaceSearchProgress({ id, slug, on }: { id: string; slug: string; on: boolean }) {
  const [status, setStatus] = useState<FaceStatus | undefined>();
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const s = await ok(adminApi.GET('/api/faces/status'));
        if (stop) return;
        setStatus(s);
        const ev = s.events.find((e) => e.eventSlug === slug);
        if (ev && ev.indexed >= ev.total) return; // done: nothing more to show
      } catch {
        // The hint below stays as it was; the next look may work.
      }
      if (!stop) timer = setTimeout(load, POLL_MS);
    };
    void load();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [slug, on]);

  const hint = 'Attendees find their photos with a selfie, compared on this computer and never stored.';
  if (!status)
    return (
      <p class="hint" id={id}>
        {hint}
      </p>
    );
  if (status.state !== 'on') {
    return (
      <p class="hint" id={id}>
        {hint}{' '}
        {status.state === 'off'
          ? 'It is off on this server: start it with FACE_SEARCH=on.'
          : 'FACE_SEARCH is on, but the face packages are not installed (npm install --include=optional).'}
      </p>
    );
  }
  const ev = status.events.find((e) => e.eventSlug === slug);
  if (!on || !ev)
    return (
      <p class="hint" id={id}>
        {hint}
      </p>
    );
  return (
    <div class="face-progress" id={id} role="status">
      <progress max={Math.max(ev.total, 1)} value={ev.indexed} aria-label="Photos indexed for Find me" />
      <span class="small">
        {ev.indexed >= ev.total
          ? `All ${ev.total} photos are searchable by face.`
          : `${ev.indexed} of ${ev.total} photos indexed; new photos follow their thumbnails.`}
      </span>
    </div>
  );
}
