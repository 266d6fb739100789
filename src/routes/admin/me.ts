/**
 * `GET /api/admin/me`: who the caller is and what their role may call (docs/contract.md,
 * "Roles"), from the admin-auth plugin's route table, so the dashboard keeps no copy of it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACTIONS, type Action, ROLES, roleAtLeast } from '../../domain/roles.js';
import { errorResponses } from '../../schemas/errors.js';

const AdminMe = z
  .object({
    role: z.enum(ROLES).describe('`owner` (everything), `staff` (booth helpers) or `viewer` (reads only)'),
    by: z.string().describe('How the order history names this token: `admin:<8 hex>`, `staff:<8 hex>`, ...'),
    photographer: z
      .string()
      .optional()
      .describe(
        'A `photographer:<name>:<token>` entry of ADMIN_TOKENS: the name; such a viewer sees only the sales of their photos',
      ),
    routes: z
      .array(z.string())
      .describe(
        'Every admin route this role may call, as `METHOD /path` with `:params` (e.g. `PUT /api/event-config`)',
      ),
    actions: z
      .array(z.string())
      .describe('The finer rules this role may use inside a route (e.g. `status:void`, `status:paid`)'),
  })
  .meta({ id: 'AdminMe' });

const meRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { adminAuth } = fastify;
  fastify.get(
    '/api/admin/me',
    {
      config: { access: 'viewer', photographer: 'their name (`photographer`) and the routes open to them.' },
      schema: {
        tags: ['admin'],
        summary: 'The role of the admin token sent, and what it may call',
        security: [{ adminToken: [] }],
        response: { 200: AdminMe, ...errorResponses('UNAUTHORIZED', 'RATE_LIMITED') },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const role = adminAuth.role(request) ?? 'viewer';
      const photographer = adminAuth.photographer(request);
      const routes = adminAuth
        .routes()
        .filter((r) => roleAtLeast(role, r.role) && (photographer === undefined || r.photographer !== undefined))
        .flatMap((r) => r.method.split(',').map((m) => `${m} ${r.url}`));
      const actions = (Object.keys(ACTIONS) as Action[]).filter((a) => roleAtLeast(role, ACTIONS[a].role));
      const me = { role, by: adminAuth.actor(request), routes, actions };
      return photographer === undefined ? me : { ...me, photographer };
    },
  );
};

export default meRoutes;
