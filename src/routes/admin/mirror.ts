/**
 * `GET /api/admin/mirror` (admin): the spreadsheet mirror's status for the dashboard
 * (docs/contract.md, "System of record and the spreadsheet mirror"; docs/mirror.md).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { MirrorProblem, MirrorState } from '../../services/store/ports/mirror.js';

/** A problem as the record keeps it; its kind is the list it is in. */
const Problem = MirrorProblem.pick({ orderId: true, orderNumber: true, sheetRow: true, message: true, at: true }).meta({
  id: 'MirrorProblem',
});

const MirrorStatusBody = z
  .object({
    enabled: z.boolean().describe('false: GOOGLE_SHEETS_ID is not set; every other field is empty'),
    leader: z.boolean().describe('This server process is the one writing to the sheet'),
    tab: z.string().nullable(),
    pending: z.number().int().describe('Orders new or changed in the record and not yet in the sheet'),
    ...MirrorState.shape,
    conflicts: z
      .array(Problem)
      .describe("A cell changed in the sheet and through the service: the service's value won"),
    rejected: z.array(Problem).describe('Hand edits the order rules refused: not applied, the values written back'),
    unreadable: z.array(Problem).describe('Rows that cannot be read: reported, never rewritten'),
    removed: z.array(Problem).describe('Orders whose row was removed by hand: kept, not written again'),
    duplicates: z.array(Problem).describe('Rows repeating an order (id or number): the first counts'),
  })
  .meta({ id: 'MirrorStatus' });

const mirrorRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/admin/mirror',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['admin'],
        summary: 'The spreadsheet mirror: orders waiting, last error, conflicts and rows to look at',
        description: [
          'With GOOGLE_SHEETS_ID set, every order is kept in the system of record and copied to the',
          'spreadsheet by a worker; while Google can’t be reached orders wait here (`pending`) and nothing',
          'is refused. Conflicts and refused hand edits are the latest 200; the row lists describe the sheet',
          'as last read. Without a token or with a wrong one 401 `UNAUTHORIZED` (with `WWW-Authenticate`),',
          '429 `RATE_LIMITED` after repeated wrong tokens from the address.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        response: {
          200: MirrorStatusBody,
          ...errorResponses('UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async () => fastify.mirror.status(),
  );
};

export default mirrorRoutes;
