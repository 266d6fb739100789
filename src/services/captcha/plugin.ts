/**
 * CAPTCHA (docs/contract.md, "CAPTCHA"), as `fastify.captcha`; the provider is CAPTCHA_PROVIDER.
 * A provider that is unreachable, slow or rejects our own key is 503 CAPTCHA_UNAVAILABLE
 * with `Retry-After`: the shop fails closed, but tells the checkout to retry with the same
 * token rather than solve again; it is logged as an error so a misconfigured secret is seen.
 * A token is accepted once, across restarts and processes (the store keeps a hash of each):
 * ALTCHA solutions until their challenge expires, siteverify tokens for 10 minutes, longer
 * than any provider keeps one valid.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appError } from '../../errors/catalogue.js';
import { configuredOrStoredKey } from '../../lib/secret-file.js';
import type { CaptchaTokensPort } from '../store/ports/captcha-tokens.js';
import { createAltcha } from './altcha.js';
import {
  CONFIGURATION_ERROR_CODES,
  SITEVERIFY_URLS,
  type SiteverifyProvider,
  SiteverifyUnavailable,
  siteverify,
} from './siteverify.js';
import type { Captcha } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    captcha: Captcha;
  }
}

const ALTCHA_KEY_FILE = 'altcha-hmac-key';
/** Longer than any real token (Turnstile: 2048 characters; ALTCHA payloads: under 1 KiB). */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** How long an accepted siteverify token is remembered. */
const SITEVERIFY_REPLAY_TTL_MS = 10 * 60_000;
/** Seconds a client is told to wait when the provider is down. */
const UNAVAILABLE_RETRY_AFTER_S = 10;

function requireToken(token: string | undefined): string {
  if (token === undefined || token.trim() === '') {
    throw appError('CAPTCHA_REQUIRED', { details: 'Send the CAPTCHA solution as captchaToken or X-Captcha-Token' });
  }
  if (token.length > MAX_TOKEN_LENGTH) throw appError('CAPTCHA_FAILED', { details: 'The CAPTCHA token is too long' });
  return token.trim();
}

function altchaCaptcha(opts: Parameters<typeof createAltcha>[0]): Captcha {
  const altcha = createAltcha(opts);
  return {
    provider: 'altcha',
    async verify(token) {
      await altcha.verify(requireToken(token));
    },
    async challenge() {
      return { provider: 'altcha', ...(await altcha.challenge()) };
    },
  };
}

type SiteverifyCaptchaOptions = {
  provider: SiteverifyProvider;
  secret: string;
  siteKey?: string;
  verifyUrl?: string;
  timeoutMs: number;
  /** Where spent tokens are kept until they expire. */
  used: CaptchaTokensPort;
};

function siteverifyCaptcha(opts: SiteverifyCaptchaOptions): Captcha {
  const url = opts.verifyUrl ?? SITEVERIFY_URLS[opts.provider];
  const used = opts.used;
  const unavailable = (details: string, cause?: unknown) =>
    appError('CAPTCHA_UNAVAILABLE', {
      details,
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
      cause,
    });

  return {
    provider: opts.provider,
    async verify(rawToken, remoteIp) {
      const token = requireToken(rawToken);
      // Marked before asking, so two concurrent submissions of one token cannot both pass.
      const key = createHash('sha256').update(`${opts.provider}:${token}`).digest('base64url');
      if (!(await used.spend(key, new Date(Date.now() + SITEVERIFY_REPLAY_TTL_MS)))) {
        throw appError('CAPTCHA_FAILED', { details: 'This CAPTCHA token has already been used' });
      }
      let result: Awaited<ReturnType<typeof siteverify>>;
      try {
        result = await siteverify({
          provider: opts.provider,
          url,
          secret: opts.secret,
          token,
          remoteIp,
          siteKey: opts.siteKey,
          timeoutMs: opts.timeoutMs,
        });
      } catch (err) {
        await used.release(key).catch(() => {}); // not spent: the visitor may retry with it
        if (err instanceof SiteverifyUnavailable) {
          throw unavailable(`The ${opts.provider} service could not be reached; try again shortly`, err);
        }
        throw err;
      }
      if (result.success) return;
      await used.release(key).catch(() => {});
      const ours = result.errorCodes.filter((c) => CONFIGURATION_ERROR_CODES.has(c));
      if (ours.length > 0) {
        // The error handler logs 5xx with their cause: this is what the operator reads.
        const cause = new Error(`${opts.provider} rejected CAPTCHA_SECRET or CAPTCHA_SITE_KEY: ${ours.join(', ')}`);
        throw unavailable(`The ${opts.provider} check is misconfigured on the server`, cause);
      }
      throw appError('CAPTCHA_FAILED', {
        details: `${opts.provider} refused the token${result.errorCodes.length ? `: ${result.errorCodes.join(', ')}` : ''}`,
      });
    },
    async challenge() {
      return { provider: opts.provider, siteKey: opts.siteKey ?? null };
    },
  };
}

function offCaptcha(): Captcha {
  return {
    provider: 'off',
    async verify() {},
    async challenge() {
      return { provider: 'off' };
    },
  };
}

export default fp(
  async function captchaPlugin(fastify: FastifyInstance) {
    const { config } = fastify;
    let captcha: Captcha;
    switch (config.CAPTCHA_PROVIDER) {
      case 'altcha':
        captcha = altchaCaptcha({
          used: fastify.store.captchaTokens,
          hmacKey: await configuredOrStoredKey(fastify, {
            configured: config.ALTCHA_HMAC_KEY,
            fileName: ALTCHA_KEY_FILE,
            what: 'ALTCHA HMAC key',
            encoding: 'hex',
          }),
          maxNumber: config.ALTCHA_MAX_NUMBER,
          expiresS: config.ALTCHA_EXPIRES_S,
        });
        break;
      case 'off':
        fastify.log.warn('CAPTCHA_PROVIDER=off: orders are accepted without any CAPTCHA');
        captcha = offCaptcha();
        break;
      default:
        captcha = siteverifyCaptcha({
          provider: config.CAPTCHA_PROVIDER,
          // config refuses these providers without a secret
          secret: config.CAPTCHA_SECRET ?? '',
          siteKey: config.CAPTCHA_SITE_KEY,
          verifyUrl: config.CAPTCHA_VERIFY_URL,
          timeoutMs: config.CAPTCHA_VERIFY_TIMEOUT_MS,
          used: fastify.store.captchaTokens,
        });
    }
    fastify.decorate('captcha', captcha);
  },
  { name: 'captcha', dependencies: ['config', 'store'] },
);
