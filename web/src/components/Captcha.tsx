/**
 * The CAPTCHA of the checkout, whichever the server uses (`GET /api/captcha/challenge` says):
 * - `altcha` (default): the `altcha` widget 3.x, bundled here (nothing from a CDN), solving the
 *   server's proof-of-work challenge in a Web Worker; its base64 payload is the token;
 * - `turnstile`, `hcaptcha`, `recaptcha`: the provider's own widget (its script comes from the
 *   provider; those CAPTCHAs need the internet anyway);
 * - `off`: nothing to show, no token.
 */
import type { Ref } from 'preact';
import { useEffect, useImperativeHandle, useRef, useState } from 'preact/hooks';
import { ok, api as server } from '../lib/api.js';

export type CaptchaHandle = {
  /** The token to send, solving first if needed; undefined when no CAPTCHA is configured. */
  token(): Promise<string | undefined>;
  /** A token is used once: after an order (or a refusal), start over. */
  reset(): void;
};

type Hosted = {
  render(el: HTMLElement, opts: Record<string, unknown>): string | number;
  reset(id?: string | number): void;
};

const HOSTED: Record<string, { src: string; global: string }> = {
  turnstile: { src: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', global: 'turnstile' },
  hcaptcha: { src: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
  recaptcha: { src: 'https://www.google.com/recaptcha/api.js?render=explicit', global: 'grecaptcha' },
};

async function loadAltcha(): Promise<void> {
  const [worker] = await Promise.all([
    import('altcha/workers/sha?worker'),
    import('altcha/external'),
    import('altcha/altcha.css'),
  ]);
  const ShaWorker = worker.default;
  for (const alg of ['SHA-256', 'SHA-384', 'SHA-512']) globalThis.$altcha.algorithms.set(alg, () => new ShaWorker());
}

function loadScript(src: string, global: string): Promise<Hosted> {
  return new Promise((resolve, reject) => {
    const ready = () => (window as unknown as Record<string, Hosted | undefined>)[global];
    const s = document.createElement('script');
    s.src = src;
    s.async = true;
    s.onerror = () => reject(new Error('The CAPTCHA could not be loaded. Check your connection.'));
    s.onload = () => {
      const started = Date.now();
      const poll = () => {
        const g = ready();
        if (g?.render) resolve(g);
        else if (Date.now() - started > 10_000) reject(new Error('The CAPTCHA did not start.'));
        else setTimeout(poll, 50);
      };
      poll();
    };
    document.head.append(s);
  });
}

export function Captcha({ handle }: { handle: Ref<CaptchaHandle> }) {
  const box = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'off' | 'error'>('loading');
  const [message, setMessage] = useState('');
  const impl = useRef<CaptchaHandle>({ token: async () => undefined, reset: () => {} });

  useEffect(() => {
    let alive = true;
    (async () => {
      const info = await ok(server.GET('/api/captcha/challenge'));
      if (!alive) return;
      if (info.provider === 'off') {
        setStatus('off');
        return;
      }
      if (info.provider === 'altcha') {
        if (!window.isSecureContext) {
          throw new Error(
            'This page is not on a secure connection (https), so the anti-spam check cannot run. ' +
              'Please order at the booth, or open the shop through its https address.',
          );
        }
        await loadAltcha();
        if (!alive || !box.current) return;
        const el = document.createElement('altcha-widget');
        el.setAttribute('challenge', '/api/captcha/challenge');
        el.setAttribute('name', 'altcha');
        el.setAttribute('auto', 'onfocus');
        el.setAttribute('configuration', JSON.stringify({ hideFooter: true }));
        let payload: string | undefined;
        el.addEventListener('statechange', (e) => {
          const d = (e as CustomEvent<{ state: string; payload?: string }>).detail;
          payload = d.state === 'verified' ? d.payload : undefined;
        });
        box.current.append(el);
        /** Resolves when a verification already under way (started on focus) has ended. */
        const settled = () =>
          new Promise<void>((resolve) => {
            const done = () => {
              el.removeEventListener('statechange', on);
              clearTimeout(timer);
              resolve();
            };
            const on = () => {
              if (el.getState() !== 'verifying') done();
            };
            const timer = setTimeout(done, 60_000);
            el.addEventListener('statechange', on);
          });
        impl.current = {
          async token() {
            if (payload) return payload;
            if (el.getState() === 'verifying') {
              await settled();
              if (payload) return payload;
            }
            const result = await el.verify();
            if (!result?.payload) throw new Error('The anti-spam check did not finish. Please try again.');
            payload = result.payload;
            return payload;
          },
          reset() {
            payload = undefined;
            el.reset();
          },
        };
        setStatus('ready');
        return;
      }
      const hosted = HOSTED[info.provider];
      if (!hosted || !info.siteKey) throw new Error('The CAPTCHA is not configured on the server.');
      const api = await loadScript(hosted.src, hosted.global);
      if (!alive || !box.current) return;
      let token: string | undefined;
      const id = api.render(box.current, {
        sitekey: info.siteKey,
        callback: (t: string) => {
          token = t;
        },
        'expired-callback': () => {
          token = undefined;
        },
      });
      impl.current = {
        async token() {
          if (!token) throw new Error('Please complete the CAPTCHA first.');
          return token;
        },
        reset() {
          token = undefined;
          api.reset(id);
        },
      };
      setStatus('ready');
    })().catch((err: Error) => {
      if (!alive) return;
      setStatus('error');
      setMessage(err.message);
    });
    return () => {
      alive = false;
    };
  }, []);

  useImperativeHandle(
    handle,
    () => ({
      token: () => {
        if (status === 'loading') return Promise.reject(new Error('The anti-spam check is still loading.'));
        if (status === 'error') return Promise.reject(new Error(message));
        return impl.current.token();
      },
      reset: () => impl.current.reset(),
    }),
    [status, message],
  );

  if (status === 'off') return null;
  return (
    <div class="captcha">
      <div ref={box} />
      {status === 'loading' && <p class="muted small">Loading the anti-spam check…</p>}
      {status === 'error' && (
        <p class="field-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
