/**
 * `GET /api/captcha/challenge` (docs/contract.md, "CAPTCHA"): with ALTCHA, a signed challenge
 * in the shape the `altcha` widget 3.x reads; else the provider and its site key. The front
 * end always asks here, so it needs no copy of the setting.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';

const AltchaChallenge = z
  .object({
    provider: z.literal('altcha'),
    parameters: z
      .object({
        algorithm: z.string().describe('Key derivation the solver uses (SHA-256)'),
        nonce: z.string(),
        salt: z.string(),
        cost: z.number().int(),
        keyLength: z.number().int(),
        keyPrefix: z.string().describe('Hex prefix the derived key must start with'),
        expiresAt: z.number().int().describe('Unix time (seconds) after which a solution is refused'),
        keySignature: z.string().optional(),
        memoryCost: z.number().int().optional(),
        parallelism: z.number().int().optional(),
        data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
      })
      .describe('Signed challenge parameters; pass them back unchanged'),
    signature: z.string().describe('HMAC of the parameters'),
  })
  .describe(
    'ALTCHA proof of work (altcha-lib v2). Solve it with the `altcha` widget 3.x and send its ' +
      'base64 payload as `captchaToken` (or `X-Captcha-Token`) with the order. Single use.',
  );

const HostedWidget = z
  .object({
    provider: z.enum(['turnstile', 'hcaptcha', 'recaptcha']),
    siteKey: z.string().nullable().describe('Site key for the provider widget (CAPTCHA_SITE_KEY)'),
  })
  .describe('A hosted CAPTCHA: render its widget with this site key and send its token with the order');

const Off = z
  .object({ provider: z.literal('off') })
  .describe('CAPTCHA disabled (development only): orders need no token');

const ChallengeResponse = z
  .discriminatedUnion('provider', [AltchaChallenge, HostedWidget, Off])
  .meta({ id: 'CaptchaChallenge' });

const captchaRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/captcha/challenge',
    {
      config: { rateLimit: fastify.rateLimits.captcha },
      schema: {
        tags: ['captcha'],
        summary: 'A CAPTCHA challenge, or which CAPTCHA widget to show',
        description: [
          'Answers by `CAPTCHA_PROVIDER`, always 200, never cached (`Cache-Control: no-store`):',
          '- `altcha` (default): a new signed ALTCHA challenge, valid for `ALTCHA_EXPIRES_S` seconds;',
          '- `turnstile`, `hcaptcha`, `recaptcha`: `{ provider, siteKey }`, so the checkout loads that widget;',
          '- `off`: `{ provider: "off" }`.',
          '',
          'Rate limited per client address (`RATE_LIMIT_CAPTCHA_PER_MIN`, default 30 a minute):',
          'over the limit, 429 `RATE_LIMITED` with `Retry-After`.',
        ].join('\n'),
        response: { 200: ChallengeResponse, ...errorResponses('RATE_LIMITED') },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return (await fastify.captcha.challenge()) as z.infer<typeof ChallengeResponse>;
    },
  );
};

export default captchaRoutes;
