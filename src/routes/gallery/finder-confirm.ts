/**
 * The confirmation link of a photo code's email subscription (docs/contract.md, "Hardening,
 * round 2": double opt-in). The GET page only shows a button: a mail scanner that follows the
 * link subscribes nobody; the button's POST confirms.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { photoCodeUrl } from '../../domain/photo-code.js';
import { escapeHtml } from '../../lib/escape.js';
import { errorResponses } from '../../schemas/errors.js';
import { CONFIRM_EMAIL_PATH, type OptInOutcome } from '../../services/finder/subscriptions.js';
import {
  acceptTokenForms,
  FORM,
  type HtmlPage,
  htmlPage,
  htmlResponse,
  p,
  sendPage,
  siteNameOf,
  tokenForm,
} from '../common/html-page.js';
import { ConfirmEmailBody, ConfirmEmailQuery } from './finder-schemas.js';

type Code = 'AWAITING_CONFIRMATION' | 'CONFIRMED' | 'ALREADY_CONFIRMED' | 'VERIFICATION_FAILED';

const HOME = ['<a href="/">Back to the photos</a>'];

function optInPage(outcome: OptInOutcome, siteName: string, publicBaseUrl: string, token: string): HtmlPage<Code> {
  if (outcome.kind === 'invalid') {
    return htmlPage(
      siteName,
      403,
      'VERIFICATION_FAILED',
      'This confirmation link is not valid',
      [p('The link is incomplete or has been altered. Please open it again from the email, or copy the whole link.')],
      HOME,
    );
  }
  const { code, email } = outcome.subscription;
  const mine = photoCodeUrl('', code);
  const links = [`<a href="${escapeHtml(mine)}">See the photos of ${escapeHtml(code)}</a>`, ...HOME];
  const who = `<strong>${escapeHtml(email)}</strong>`;
  if (outcome.kind === 'confirmable') {
    return htmlPage(
      siteName,
      200,
      'AWAITING_CONFIRMATION',
      'Confirm your email',
      [
        p(`Someone (we hope you) asked us to email ${who} when new photos of photo code ${escapeHtml(code)} arrive.`),
        tokenForm(CONFIRM_EMAIL_PATH, token, 'Yes, email me'),
        p(
          '<span class="muted">Nothing is sent until you press the button. If you did not ask, ignore this: you will not hear from us again.</span>',
        ),
      ],
      links,
    );
  }
  const confirmed = outcome.kind === 'confirmed';
  return htmlPage(
    siteName,
    200,
    confirmed ? 'CONFIRMED' : 'ALREADY_CONFIRMED',
    confirmed ? 'Email confirmed' : 'Email confirmed already',
    [
      p(`We will email ${who} when new photos of photo code ${escapeHtml(code)} arrive.`),
      p(`<span class="muted">Your photos so far: ${escapeHtml(photoCodeUrl(publicBaseUrl, code))}</span>`),
    ],
    links,
  );
}

const pages = {
  200: htmlResponse('The page with the button, or: confirmed (now or before)'),
  403: htmlResponse('`VERIFICATION_FAILED`: no subscription has this token (an altered or incomplete link)'),
};

const finderConfirmRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { subscriptions } = fastify.photoCodes;
  const siteName = siteNameOf(fastify.config.MAIL_FROM);
  const base = fastify.config.publicBaseUrl;
  acceptTokenForms(fastify);

  fastify.get(
    CONFIRM_EMAIL_PATH,
    {
      exposeHeadRoute: false,
      schema: {
        tags: ['gallery'],
        summary: "A photo code email subscription's confirmation link: shows what it confirms, confirms nothing",
        description: [
          'Opened from the mail `POST /api/finder/{code}/subscribe` sends to a new email address; answers a small',
          'HTML page with a button that POSTs the token here. Opening the link changes nothing (mail scanners',
          'follow links). The outcome is on `<main data-code="...">`: `AWAITING_CONFIRMATION` or',
          '`ALREADY_CONFIRMED` (200); `VERIFICATION_FAILED` (403, no subscription has that token).',
        ].join('\n'),
        querystring: ConfirmEmailQuery,
        response: { ...pages, ...errorResponses('VALIDATION_FAILED', 'STORE_UNAVAILABLE') },
      },
    },
    async (request, reply) => {
      const { token } = request.query;
      return sendPage(reply, optInPage(await subscriptions.inspect(token), siteName, base, token ?? ''));
    },
  );

  fastify.post(
    CONFIRM_EMAIL_PATH,
    {
      schema: {
        tags: ['gallery'],
        summary: 'Confirm a photo code email subscription (the button on the confirmation page)',
        description: [
          'The form of the page `GET /api/finder/confirm-email` shows (`token=...`, form-encoded; JSON works',
          'too). From then on the address is told when new photos join the code; before, it was told nothing.',
          'Answers an HTML page: `CONFIRMED`, `ALREADY_CONFIRMED` (200); `VERIFICATION_FAILED` (403).',
        ].join('\n'),
        consumes: [FORM, 'application/json'],
        body: ConfirmEmailBody,
        response: {
          ...pages,
          ...errorResponses('VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.body;
      return sendPage(reply, optInPage(await subscriptions.confirm(token), siteName, base, ''));
    },
  );
};

export default finderConfirmRoutes;
