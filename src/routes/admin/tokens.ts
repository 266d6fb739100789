/**
 * Admin tokens made by the owner (docs/contract.md, "Roles"). A token is in its creation's
 * answer only (the record keeps its SHA-256); nothing else ever shows a secret.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROLES } from '../../domain/roles.js';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { hasLineBreak } from '../../services/orders/text.js';
import { AdminTokenRecord } from '../../services/store/ports/admin-tokens.js';
import { BODY_ERRORS } from '../common/errors.js';

/** A token as the owner sees it: the record's fields (never the token's hash), and its name in history. */
const record = AdminTokenRecord.shape;

const TokenCreate = z
  .strictObject({
    role: record.role,
    label: z
      .string()
      .trim()
      .max(60)
      .refine((s) => !hasLineBreak(s), 'one line')
      .default('')
      .describe('Whose token it is, e.g. "Ana at the booth" (shown in the list, never secret)'),
  })
  .meta({ id: 'AdminTokenCreate' });

const TokenView = z
  .object({
    id: record.id,
    role: record.role,
    label: record.label,
    by: z.string().describe('How the order history names this token: `staff:<8 hex>` or `viewer:<8 hex>`'),
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    revokedAt: record.revokedAt,
    revokedBy: record.revokedBy,
  })
  .meta({ id: 'AdminToken' });

const TokenCreated = TokenView.extend({
  token: z.string().describe('The token, shown this once: the record keeps only its SHA-256'),
}).meta({ id: 'AdminTokenCreated' });

const TokenList = z
  .object({
    tokens: z.array(TokenView).describe('Tokens made here, oldest first, revoked ones too'),
    environment: z
      .array(z.object({ role: z.enum(ROLES), by: z.string() }))
      .describe('ADMIN_TOKENS entries (or the generated token), without the tokens: changed only in the environment'),
  })
  .meta({ id: 'AdminTokenList' });

const TokenParams = z.object({ id: z.string().trim().min(1).max(100) });

const ERRORS = ['UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE'] as const;

const tokenRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const security = [{ adminToken: [] }];
  const owner = { config: { access: 'owner' } } as const;

  fastify.post(
    '/api/admin/tokens',
    {
      ...owner,
      schema: {
        tags: ['admin'],
        summary: 'Make an admin token for a helper',
        description: [
          'Body `{ role, label }`: `staff` (booth orders, payments, shipping, pickup, printing) or `viewer` (reads',
          'only). Answers 201 with the token: shown this once, the record keeps only its SHA-256. It works at once',
          'on every server; sign in to the dashboard with it like with any admin token.',
        ].join('\n'),
        security,
        body: TokenCreate,
        response: {
          201: TokenCreated,
          ...errorResponses(...ERRORS, ...BODY_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const made = await fastify.adminTokens.create(
        request.body.role,
        request.body.label,
        fastify.adminAuth.actor(request),
      );
      request.log.info({ id: made.id, role: made.role }, 'admin token made');
      return reply.code(201).header('Cache-Control', 'no-store').send(made);
    },
  );

  fastify.get(
    '/api/admin/tokens',
    {
      ...owner,
      schema: {
        tags: ['admin'],
        summary: 'The admin tokens (without the tokens)',
        description:
          'The tokens made here (revoked ones too) and the entries of ADMIN_TOKENS, never a token or its hash.',
        security,
        response: { 200: TokenList, ...errorResponses(...ERRORS) },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { tokens: await fastify.adminTokens.list(), environment: fastify.adminTokens.environment() };
    },
  );

  fastify.delete(
    '/api/admin/tokens/:id',
    {
      ...owner,
      schema: {
        tags: ['admin'],
        summary: 'Revoke an admin token',
        description: [
          'The token stops working at once on this server and within about a second on every other; requests',
          'with it then answer 401. Revoking it again changes nothing. An unknown id: 404 `TOKEN_NOT_FOUND`.',
          'ADMIN_TOKENS entries are revoked by changing the environment.',
        ].join('\n'),
        security,
        params: TokenParams,
        response: {
          200: TokenView,
          // a DELETE may still carry a body, which is parsed (and refused) like any other
          ...errorResponses(...ERRORS, ...BODY_ERRORS, 'TOKEN_NOT_FOUND'),
        },
      },
    },
    async (request) => {
      const revoked = await fastify.adminTokens.revoke(request.params.id, fastify.adminAuth.actor(request));
      if (!revoked) {
        throw appError('TOKEN_NOT_FOUND', { details: { id: request.params.id.slice(0, 100) } });
      }
      request.log.info({ id: revoked.id }, 'admin token revoked');
      return revoked;
    },
  );
};

export default tokenRoutes;
