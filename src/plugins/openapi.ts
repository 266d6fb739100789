/**
 * The OpenAPI 3.1.0 document, generated from the zod route schemas, served at
 * `/openapi.json` and rendered at `/docs` (Swagger UI, assets served locally).
 * `npm run openapi` writes it to `openapi/openapi.json`; a test keeps the two equal.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const openapiInfo = {
  title: 'Convention Photo Service',
  version: '1.0.0',
  description: [
    'Gallery, ordering and administration API for convention photographers.',
    '',
    'One process serves two hosts: the gallery (`/event...`) and ordering and',
    'administration (`/api...`). Every error body is `{ error, code, details }`',
    '(see the `Error` schema); codes are stable. Money in Order objects is text such as',
    '`"$12.50"`; in the sales summary it is a number of dollars. Admin routes take',
    '`Authorization: Bearer <token>`.',
  ].join('\n'),
};

export const openapiTags = [
  { name: 'gallery', description: 'Events, photo pages and folders (gallery host)' },
  { name: 'images', description: 'Thumbnails and watermarked previews; originals are never served' },
  { name: 'events', description: 'Event configuration and discovery (ordering host)' },
  { name: 'orders', description: 'Order submission and customer feedback' },
  { name: 'admin', description: 'Order administration (admin token required)' },
  { name: 'labels', description: 'Shipping labels as PNG and DOCX (admin token required)' },
  { name: 'captcha', description: 'CAPTCHA challenges' },
  { name: 'push', description: 'Web push subscriptions' },
  { name: 'payments', description: 'Online payment (optional, PAYMENT_PROVIDER=stripe): the provider webhook' },
  { name: 'downloads', description: 'Digital files of paid orders, through signed links' },
  { name: 'coupons', description: 'Coupons customers give with an order (admin token required)' },
  { name: 'operations', description: 'Health, readiness and this document' },
];

export default fp(
  async function openapiPlugin(fastify) {
    await fastify.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: openapiInfo,
        servers: [
          {
            url: '{gallery_url}',
            description: 'Gallery host (`/event...`)',
            variables: { gallery_url: { default: 'http://localhost:3000' } },
          },
          {
            url: '{base_url}',
            description: 'Ordering and administration host (`/api...`)',
            variables: { base_url: { default: 'http://localhost:3000' } },
          },
        ],
        tags: openapiTags,
        components: {
          securitySchemes: {
            adminToken: {
              type: 'http',
              scheme: 'bearer',
              description: 'An admin token from `ADMIN_TOKENS` (or the one generated and printed at first start).',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });

    await fastify.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
      staticCSP: true,
      // Like the app's own pages, /docs may not be framed by another site (clickjacking an
      // admin who has pasted a token into "Authorize"): docs/contract.md, "Hardening".
      transformStaticCSP: (header) => header.replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'"),
    });
  },
  { name: 'openapi' },
);
