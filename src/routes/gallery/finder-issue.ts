/**
 * Handing out photo codes (docs/contract.md, "Finding one's photos, and intake"):
 * `POST /api/finder` (an attendee's phone, behind a CAPTCHA, or an admin) and the booth's
 * card sheet `GET /api/finder/cards.pdf` (staff and owner).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import { codeForLog } from '../../lib/photo-code-log.js';
import { errorResponses } from '../../schemas/errors.js';
import { captchaTokenOf } from '../../services/captcha/token.js';
import { cardsPdf } from '../../services/finder/cards-pdf.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import { CardsQuery, IssueBody, IssuedCode } from './finder-schemas.js';

const Binary = z.string().meta({ format: 'binary' });

const issueRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photoCodes, captcha, adminAuth } = fastify;

  fastify.post(
    '/api/finder',
    {
      // The public asks with a CAPTCHA; admin credentials (staff and up) instead, as at the booth.
      config: { rateLimit: fastify.rateLimits.codes, access: { role: 'staff', public: 'with a CAPTCHA' } },
      // No body at all (an admin's plain POST) is an empty one.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['gallery'],
        summary: 'A new photo code',
        description: [
          "Issues a photo code for an attendee: `{ code, url, qrSvg }`, `url` being the attendee's photos page",
          '`PUBLIC_BASE_URL/me/<code>` and `qrSvg` its QR code. The attendee shows the QR to the photographer, who',
          'shoots it as the first frame; the frames after it are the attendee’s (`GET /api/finder/{code}`).',
          '',
          'Who may ask: a CAPTCHA solution (`captchaToken` in the body or `X-Captcha-Token`; missing: 400',
          '`CAPTCHA_REQUIRED`, refused or used before: 403 `CAPTCHA_FAILED`), as for orders, or admin credentials.',
          'Rate limited per client address (`RATE_LIMIT_CODES_PER_MIN`; 429 `RATE_LIMITED` with `Retry-After`);',
          'admins are not limited. The code is recorded before the answer goes out.',
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        body: IssueBody.optional(),
        response: {
          201: IssuedCode,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'CAPTCHA_REQUIRED', 'CAPTCHA_FAILED'),
        },
      },
    },
    async (request, reply) => {
      const admin = adminAuth.isAdmin(request);
      if (!admin && captcha.provider !== 'off') {
        const token = captchaTokenOf(request);
        if (token === undefined || token.trim() === '') {
          throw appError('CAPTCHA_REQUIRED', {
            details: 'Send the CAPTCHA solution as captchaToken or X-Captcha-Token',
          });
        }
        await captcha.verify(token, request.ip);
      }
      const [issued] = await photoCodes.issue(1, admin ? 'admin' : 'app');
      if (!issued) throw new Error('no photo code was issued');
      request.log.info({ code: codeForLog(issued.code), by: admin ? 'admin' : 'app' }, 'photo code issued');
      return reply.code(201).send({ code: issued.code, url: issued.url, qrSvg: await photoCodes.qrSvg(issued.url) });
    },
  );

  fastify.get(
    '/api/finder/cards.pdf',
    {
      config: { access: 'staff' }, // the card sheet is booth work
      schema: {
        tags: ['gallery'],
        summary: 'A sheet of photo code cards to print (PDF)',
        description: [
          'Issues `count` new photo codes and returns them as printable cards, ten to a page: each card holds',
          "the code's QR, the code in large type and its URL as text. For attendees without a phone at hand:",
          'they keep the card, show it to the photographer, and later scan it or type the code to find their',
          'photos. `paper=letter` (default) lays out 3.5 × 2 in cards as on Avery 8371 business-card stock;',
          '`a4` 85 × 54 mm cards as on Avery C32011; light cut marks serve plain paper. Admin only.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        querystring: CardsQuery,
        response: {
          200: {
            description:
              'The PDF. `Content-Disposition: attachment; filename="photo-code-cards-<count>.pdf"`, `Cache-Control: no-store`.',
            content: { 'application/pdf': { schema: Binary } },
          },
          ...errorResponses('VALIDATION_FAILED', 'UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const { count, paper } = request.query;
      const cards = await photoCodes.issue(count, 'card');
      request.log.info({ count: cards.length, paper }, 'photo code cards issued');
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="photo-code-cards-${count}.pdf"`)
        .header('Cache-Control', 'no-store')
        .send((await cardsPdf(cards, paper)) as never);
    },
  );
};

export default issueRoutes;
