/**
 * "Get my photo code" (`/code`): the attendee asks for a photo code (`POST /api/finder`, with
 * the CAPTCHA the checkout uses), and the phone shows its QR big, for the photographer to
 * shoot before the attendee's photos. The code stays on the device (lib/photo-codes.ts);
 * "My photos" (`/me/<code>`) is one tap away, and the attendee can ask to be told when the
 * photos arrive (push on this device, or email). A printed card's code can be typed in too.
 */
import { useRef, useState } from 'preact/hooks';
import { Captcha, type CaptchaHandle } from '../components/Captcha.js';
import { ErrorBox, Notice, useTitle } from '../components/common.js';
import type { ApiError } from '../lib/api.js';
import {
  canPush,
  getNewCode,
  type MyCode,
  myCodes,
  qrImageSrc,
  spacedCode,
  subscribeToCode,
} from '../lib/photo-codes.js';
import { navigate } from '../lib/router.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';

function GetCode({ first }: { first: boolean }) {
  const captcha = useRef<CaptchaHandle>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | Error | undefined>();
  const get = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await getNewCode(await captcha.current?.token());
      window.scrollTo(0, 0);
    } catch (err) {
      setError(err as Error);
    } finally {
      captcha.current?.reset();
      setBusy(false);
    }
  };
  return (
    <section class="card code-get">
      {first && (
        <p>
          Show your photo code to the photographer before your photos are taken. They photograph it first, and every
          photo after it is yours: they appear on your own page as soon as the photographer copies them in.
        </p>
      )}
      <Captcha handle={captcha} />
      {error && <ErrorBox error={error} />}
      <button
        type="button"
        class={`btn ${first ? 'btn-primary' : 'btn-secondary'} btn-block`}
        disabled={busy}
        onClick={get}
      >
        {busy ? 'Getting your code…' : first ? 'Get my photo code' : 'Get a new code'}
      </button>
    </section>
  );
}

function Subscribe({ code }: { code: string }) {
  const [email, setEmail] = useState('');
  const [done, setDone] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const run = async (to: { email: string } | 'push') => {
    setError(undefined);
    try {
      const message = await subscribeToCode(code, to);
      setDone(message);
      showToast(message, { kind: 'ok' });
    } catch (err) {
      setError((err as Error).message);
    }
  };
  if (done) return <p class="muted code-subscribed">{done}</p>;
  return (
    <section class="card code-subscribe">
      <h2>Tell me when my photos arrive</h2>
      {canPush() && (
        <button type="button" class="btn btn-secondary btn-block" onClick={() => void run('push')}>
          Notify me on this phone
        </button>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run({ email });
        }}
      >
        <div class="field">
          <label for="code-email">Or by email</label>
          {/* The address and its button on one line, as "Find photo #" is. */}
          <div class="find-row">
            <input
              id="code-email"
              type="email"
              autocomplete="email"
              aria-describedby="code-email-hint"
              required
              value={email}
              onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
            />
            <button type="submit" class="btn btn-secondary">
              Email me
            </button>
          </div>
          <p id="code-email-hint" class="hint">
            We first send one email with a link to confirm it is your address; no photo emails until you do.
          </p>
        </div>
      </form>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function ShowCode({ code }: { code: MyCode }) {
  return (
    <section class="code-show" aria-label={`Photo code ${spacedCode(code.code)}`}>
      <img class="code-qr" src={qrImageSrc(code.qrSvg)} alt={`QR code of ${spacedCode(code.code)}`} />
      <p class="code-text" data-code={code.code}>
        {spacedCode(code.code)}
      </p>
      <a class="btn btn-primary btn-block" href={`/me/${code.code}`}>
        My photos
      </a>
    </section>
  );
}

function TypeCode() {
  const [text, setText] = useState('');
  return (
    <form
      class="code-type"
      onSubmit={(e) => {
        e.preventDefault();
        const code = text.replace(/[\s-]/g, '');
        if (code) navigate(`/me/${encodeURIComponent(code)}`);
      }}
    >
      <div class="field">
        <label for="code-typed">Have a card from the booth? Type its code</label>
        <div class="find-row">
          <input
            id="code-typed"
            autocapitalize="characters"
            autocomplete="off"
            maxLength={12}
            value={text}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="btn btn-secondary">
            Find
          </button>
        </div>
      </div>
    </form>
  );
}

export default function MyCodePage() {
  useTitle('My photo code');
  const codes = useStore(myCodes);
  const [current, ...older] = codes;
  return (
    <main class="page code-page" id="main">
      <h1>My photo code</h1>
      {current ? (
        <>
          <ShowCode code={current} />
          <Subscribe key={current.code} code={current.code} />
          {older.length > 0 && (
            <Notice>
              Earlier codes on this phone:{' '}
              {older.map((c, i) => (
                <span key={c.code}>
                  {i > 0 && ', '}
                  <a href={`/me/${c.code}`}>{spacedCode(c.code)}</a>
                </span>
              ))}
            </Notice>
          )}
          <GetCode first={false} />
        </>
      ) : (
        <GetCode first />
      )}
      <TypeCode />
    </main>
  );
}
