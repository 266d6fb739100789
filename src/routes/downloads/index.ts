/**
 * `GET /api/downloads/{token}`: a paid digital file (docs/contract.md, "Selling"), streamed,
 * never whole in memory. No HEAD: a mail client's link checker must not spend a download.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { DOWNLOAD_TOKEN } from '../../services/downloads/tokens.js';

const DownloadParams = z.object({
  token: z
    .string()
    .regex(DOWNLOAD_TOKEN, 'not a download link')
    .describe('The token of the link: `<orderId>.<line>.<expires>.<signature>`'),
});

const downloadRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/downloads/:token',
    {
      exposeHeadRoute: false,
      schema: {
        tags: ['downloads'],
        summary: 'Download a digital file of a paid order',
        description: [
          'The link comes with the receipt and the order page, one per `digital` line, once the order is',
          '`paid`. It is valid `DOWNLOAD_TTL_DAYS` (default 30) after payment and for `DOWNLOAD_MAX` (default',
          '10) downloads. Answers `image/jpeg` as an attachment (`Content-Disposition`), with',
          '`X-Downloads-Remaining`: the full-resolution photo without watermark, its EXIF reduced to',
          'orientation, copyright and format tags (no position, camera, time or author; no XMP, IPTC or',
          'ICC profile). Something that is not a link token at all: 400 `VALIDATION_FAILED`. A forged or',
          'expired link, an order not paid, a line that is not digital, or no downloads left: 403',
          '`DOWNLOAD_UNAVAILABLE` with `details.reason`. A photo removed from the library: 404 `PHOTO_NOT_FOUND`.',
        ].join('\n'),
        params: DownloadParams,
        response: {
          200: {
            description: 'The photo',
            content: { 'image/jpeg': { schema: z.string().meta({ format: 'binary' }) } },
          },
          ...errorResponses(
            'VALIDATION_FAILED',
            'DOWNLOAD_UNAVAILABLE',
            'PHOTO_NOT_FOUND',
            'IMAGE_UNAVAILABLE',
            'STORE_UNAVAILABLE',
          ),
        },
      },
    },
    async (request, reply) => {
      const download = await fastify.downloads.open(request.params.token);
      request.log.info({ fileName: download.fileName, remaining: download.remaining }, 'digital download');
      return (
        reply
          .type('image/jpeg')
          .header('Content-Length', String(download.size))
          .header('Content-Disposition', `attachment; filename="${download.fileName}"`)
          .header('Cache-Control', 'private, no-store')
          .header('X-Downloads-Remaining', String(download.remaining))
          // A stream, which the schema's `string` (binary) type does not describe.
          .send(download.stream as never)
      );
    },
  );
};

export default downloadRoutes;
