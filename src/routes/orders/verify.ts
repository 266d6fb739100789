/**
 * The confirmation link of a held high-value order (docs/contract.md, "Notifications"). The
 * GET page only shows a button: a mail scanner that follows the link confirms nothing.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../schemas/errors.js';
import type { ConfirmOutcome } from '../../services/orders/confirm.js';
import { VERIFY_PATH } from '../../services/orders/verify-link.js';
import { acceptTokenForms, FORM, htmlResponse, sendPage, siteNameOf } from '../common/html-page.js';
import { VerifyBody, VerifyQuery } from './schemas.js';
import { verifyPage } from './verify-page.js';

const html = htmlResponse;

const pages = {
  403: html('`VERIFICATION_FAILED`: the link is forged, altered or incomplete'),
  409: html(
    '`INVALID_TRANSITION`: the order was cancelled and cannot be confirmed; `COUPON_INVALID` (POST): its coupon has no use left, the order stays held',
  ),
  410: html('`VERIFICATION_EXPIRED`: the link expired; the order is (or will be) cancelled'),
};

const outcomes = [
  'The token is `<orderId>.<expires>.<mac>`: the order id, the expiry in Unix seconds (the hold',
  'expiry, `VERIFY_LINK_TTL_HOURS` after submission) and an HMAC-SHA256 over both with the',
  'server\'s link secret. The outcome is on `<main data-code="...">`:',
].join('\n');

const verifyRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { orderIntake } = fastify;
  const siteName = siteNameOf(fastify.config.MAIL_FROM);
  acceptTokenForms(fastify);

  const answer = (outcome: ConfirmOutcome, token: string | undefined) =>
    verifyPage(outcome, { siteName, ...(token === undefined ? {} : { token }) });

  fastify.get(
    VERIFY_PATH,
    {
      // A HEAD request (link checkers) gets nothing either.
      exposeHeadRoute: false,
      schema: {
        tags: ['orders'],
        summary: 'The confirmation link of a high-value order: shows the order, confirms nothing',
        description: [
          'Opened by the customer from the confirmation mail; answers a small HTML page, not JSON.',
          'It shows the order and a "Confirm my order" button that POSTs the token to this path;',
          'opening the link changes nothing (mail scanners and link previews follow links).',
          outcomes,
          '`AWAITING_CONFIRMATION` (200, the page with the button); `ALREADY_CONFIRMED` (200);',
          '`VERIFICATION_FAILED` (403, forged, altered or incomplete link); `VERIFICATION_EXPIRED` (410,',
          'the hold lapsed and the order is cancelled); `INVALID_TRANSITION` (409, the order was cancelled).',
        ].join('\n'),
        querystring: VerifyQuery,
        response: {
          200: html('The order and its "Confirm my order" button, or: confirmed already'),
          ...pages,
          ...errorResponses('VALIDATION_FAILED', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.query;
      return sendPage(reply, answer(await orderIntake.inspectLink(token), token));
    },
  );

  fastify.post(
    VERIFY_PATH,
    {
      schema: {
        tags: ['orders'],
        summary: 'Confirm a high-value order (the button on the confirmation page)',
        description: [
          'The form of the page `GET /api/orders/verify` shows (`token=...`, form-encoded; JSON works',
          'too). Releases the held order into the pending list, mails the receipt and notifies the',
          'admins, once: a second confirmation finds it confirmed. Answers an HTML page.',
          outcomes,
          '`CONFIRMED` (200); `ALREADY_CONFIRMED` (200); `VERIFICATION_FAILED` (403);',
          '`VERIFICATION_EXPIRED` (410); `INVALID_TRANSITION` (409); `COUPON_INVALID` (409: a held order takes its',
          "coupon's use only now, and none is left; the order stays held, and the page offers to try again).",
        ].join('\n'),
        consumes: [FORM, 'application/json'],
        body: VerifyBody,
        response: {
          200: html('Confirmed, or confirmed already'),
          ...pages,
          ...errorResponses('VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.body;
      const outcome = await orderIntake.confirm(token);
      // Only the coupon's page offers to try again, with the same token.
      return sendPage(reply, answer(outcome, outcome.kind === 'couponUnavailable' ? token : undefined));
    },
  );
};

export default verifyRoutes;
