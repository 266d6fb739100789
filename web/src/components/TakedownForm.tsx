/**
 * "Request removal" on a photo (docs/contract.md, "Takedown requests"): reason, email, an optional
 * message and the CAPTCHA, as the checkout uses it. Made for a phone: one column, big targets.
 */
import { useRef, useState } from 'preact/hooks';
import { ApiError, api, ok } from '../lib/api.js';
import type { TakedownAccepted, TakedownRequest } from '../lib/api-schema.js';
import { Captcha, type CaptchaHandle } from './Captcha.js';

const REASONS = [
  ['me', 'I am in this photo and want it removed'],
  ['copyright', 'It is my work (copyright)'],
  ['other', 'Something else'],
] as const;

export function TakedownForm({ event, number, onDone }: { event: string; number: string; onDone: () => void }) {
  const [reason, setReason] = useState<'me' | 'copyright' | 'other'>('me');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  /** The answer: whether the photo left the gallery now, or waits for the photographer's review. */
  const [sent, setSent] = useState<TakedownAccepted | null>(null);
  const [busy, setBusy] = useState(false);
  const captcha = useRef<CaptchaHandle>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) {
      setError('Please give an email address, so we can tell you what we decided.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const captchaToken = await captcha.current?.token();
      // A visitor's request: the CAPTCHA, never an admin token (docs/contract.md, "Takedown requests").
      const body: TakedownRequest = {
        reason,
        email: email.trim(),
        ...(message.trim() ? { message: message.trim() } : {}),
        ...(captchaToken ? { captchaToken } : {}),
      };
      const params = { path: { event, photo: number } };
      setSent(await ok(api.POST('/api/photos/{event}/{photo}/takedown', { params, body })));
    } catch (err) {
      captcha.current?.reset();
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <div class="takedown-form" role="status">
        <p>
          <strong>Thank you.</strong> Your request for photo #{number} was received.{' '}
          {sent.hidden ? 'The photo is hidden from the gallery until we decide; ' : 'The photographer will review it; '}
          we will email you our decision.
        </p>
        <button type="button" class="btn btn-secondary" onClick={onDone}>
          Close
        </button>
      </div>
    );
  }
  return (
    <form class="takedown-form" onSubmit={submit} noValidate aria-labelledby="takedown-title">
      <h3 id="takedown-title">Request removal of photo #{number}</h3>
      <fieldset>
        <legend>Why?</legend>
        {REASONS.map(([value, label]) => (
          <label key={value} class="radio">
            <input
              type="radio"
              name="takedown-reason"
              value={value}
              checked={reason === value}
              onChange={() => setReason(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="takedown-email">Your email</label>
        <input
          id="takedown-email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          onInput={(e) => {
            setEmail((e.target as HTMLInputElement).value);
            setError('');
          }}
        />
      </div>
      <div class="field">
        <label for="takedown-message">Message (optional)</label>
        <textarea
          id="takedown-message"
          rows={3}
          maxLength={2000}
          value={message}
          onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <Captcha handle={captcha} />
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send request'}
        </button>
        <button type="button" class="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
