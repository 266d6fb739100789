/** `GET` and `PUT /api/settings` (owner): the business settings (docs/contract.md, "Business settings"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../schemas/errors.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import { BusinessSettingsBody, BusinessSettingsView } from './schemas.js';

const settingsRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const settings = fastify.businessSettings;
  const security = [{ adminToken: [] }];

  fastify.get(
    '/api/settings',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['admin'],
        summary: 'The business settings, with what is still a placeholder',
        description: [
          'The values in effect (`businessName`, `returnAddress`, `publicBaseUrl`, `paymentInstructions`, `mailFrom`),',
          'which of them were saved (`saved`), the environment’s defaults (`defaults`), and `warnings`: one per',
          'setting that would hurt at a booth (the placeholder return address on every label; a public address such',
          'as `localhost` that no attendee’s phone can open).',
        ].join('\n'),
        security,
        response: { 200: BusinessSettingsView, ...errorResponses('UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE') },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return settings.view();
    },
  );

  fastify.put(
    '/api/settings',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['admin'],
        summary: 'Save business settings',
        description: [
          'Any of the five settings: a value saves it, `null` forgets it (the environment’s value applies again).',
          '`returnAddress`: lines separated by line breaks (or `\\n`), at most 6 of 100 characters. `publicBaseUrl`: an',
          'http(s) address without a query. `mailFrom`: `Name <address>` or an address. The next label, packing slip,',
          'card and mail use them, on every server process. Answers the settings as `GET` does.',
        ].join('\n'),
        security,
        body: BusinessSettingsBody,
        response: {
          200: BusinessSettingsView,
          ...errorResponses(...ADMIN_BODY_ERRORS),
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return settings.update(request.body, fastify.adminAuth.actor(request));
    },
  );
};

export default settingsRoutes;
