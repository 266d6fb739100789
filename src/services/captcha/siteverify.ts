/**
 * Token checks against a hosted CAPTCHA's "siteverify" API (Cloudflare Turnstile,
 * hCaptcha, Google reCAPTCHA): a form-encoded POST of `secret`, `response` and `remoteip`
 * (and `sitekey` for hCaptcha when CAPTCHA_SITE_KEY is set, which it checks too),
 * answered with JSON `{ success, "error-codes": [...] }`. All three speak the same shape.
 */
import { z } from 'zod';

export type SiteverifyProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

export const SITEVERIFY_URLS: Record<SiteverifyProvider, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** Error codes meaning our own set-up is wrong (secret or site key), not the visitor's token. */
export const CONFIGURATION_ERROR_CODES = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'sitekey-secret-mismatch',
  'invalid-sitekey',
]);

const SiteverifyAnswer = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional(),
});

export type SiteverifyResult = { success: boolean; errorCodes: string[] };

/** The provider could not give an answer: unreachable, too slow, or an unreadable reply. */
export class SiteverifyUnavailable extends Error {
  override name = 'SiteverifyUnavailable';
}

export type SiteverifyRequest = {
  provider: SiteverifyProvider;
  url: string;
  secret: string;
  token: string;
  remoteIp?: string;
  siteKey?: string;
  timeoutMs: number;
};

export async function siteverify(req: SiteverifyRequest): Promise<SiteverifyResult> {
  const form = new URLSearchParams({ secret: req.secret, response: req.token });
  if (req.remoteIp) form.set('remoteip', req.remoteIp);
  if (req.provider === 'hcaptcha' && req.siteKey) form.set('sitekey', req.siteKey);

  let res: Response;
  try {
    res = await fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(req.timeoutMs),
    });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${req.timeoutMs} ms` : 'unreachable';
    throw new SiteverifyUnavailable(`${req.provider} siteverify ${reason}`, { cause: err });
  }

  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    throw new SiteverifyUnavailable(`${req.provider} siteverify answered ${res.status} without JSON`, { cause: err });
  }
  const parsed = SiteverifyAnswer.safeParse(body);
  if (!parsed.success) {
    throw new SiteverifyUnavailable(`${req.provider} siteverify answered ${res.status} with an unexpected body`);
  }
  // A 5xx with a JSON body is still the provider failing, unless it says why the token is bad.
  if (res.status >= 500 && !parsed.data.success && !parsed.data['error-codes']?.length) {
    throw new SiteverifyUnavailable(`${req.provider} siteverify answered ${res.status}`);
  }
  return { success: parsed.data.success, errorCodes: parsed.data['error-codes'] ?? [] };
}
