/**
 * The OpenAPI 3.1.0 document, generated from the zod route schemas, served at
 * `/openapi.json` and rendered at `/docs` (Swagger UI, assets served locally).
 * `npm run openapi` writes it to `openapi/openapi.json`; a test keeps the two equal.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

const openapiInfo = {
  title: 'Convention Photo Service',
  version: '1.0.0',
  description: [
    'Gallery, ordering and administration API for convention photographers.',
    '',
    'One process serves two hosts: the gallery (`/event...`) and ordering and',
    'administration (`/api...`). Every error body is `{ error, code, details }`',
    '(see the `Error` schema); codes are stable. Money in Order objects is text such as',
    '`"$12.50"`; in the sales summary it is a number of dollars. Admin routes take',
    '`Authorization: Bearer <token>`. The decisions behind the routes are written down in the',
    "repository's `docs/contract.md`.",
  ].join('\n'),
};

/**
 * The servers "Try it out" calls: `PUBLIC_BASE_URL` when set, else `/`, relative to wherever
 * the document was fetched from, so the page works on any host and port.
 */
function openapiServers(publicBaseUrl: string | undefined) {
  const base = publicBaseUrl?.replace(/\/+$/, '') || '/';
  const host = (name: string, description: string) => ({
    url: `{${name}}`,
    description,
    variables: { [name]: { default: base } },
  });
  return [
    host('gallery_url', 'Gallery host (`/event...`)'),
    host('base_url', 'Ordering and administration host (`/api...`)'),
  ];
}

/**
 * The `/docs` page's Content-Security-Policy, from Swagger UI's own. No
 * `upgrade-insecure-requests`: it would turn calls on a plain-http booth network into https
 * ones that fail; nothing from another host (no validator badge).
 */
function docsContentSecurityPolicy(publicBaseUrl: string | undefined): (header: string) => string {
  const origin = publicBaseUrl ? new URL(publicBaseUrl).origin : '';
  return (header) => {
    const directives = header
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '' && d !== 'upgrade-insecure-requests' && !d.startsWith('frame-ancestors'))
      .map((d) => d.replace(' validator.swagger.io', '').replace(/ https:(?= |$)/g, ''))
      // Swagger UI also sets style attributes, which no hash covers; a hash would switch
      // 'unsafe-inline' off, so styles get 'unsafe-inline' alone (scripts keep their hashes).
      .map((d) => (d.startsWith('style-src ') ? "style-src 'self' 'unsafe-inline'" : d));
    directives.push(`connect-src 'self'${origin ? ` ${origin}` : ''}`, "frame-ancestors 'none'");
    return directives.join('; ');
  };
}

const openapiTags = [
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
        servers: openapiServers(fastify.config.PUBLIC_BASE_URL),
        tags: openapiTags,
        components: {
          securitySchemes: {
            adminToken: {
              type: 'http',
              scheme: 'bearer',
              description:
                'An admin token from `ADMIN_TOKENS`, or the one generated at first start (`DATA_DIR/admin-token`).',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });

    const csp = docsContentSecurityPolicy(fastify.config.PUBLIC_BASE_URL);
    await fastify.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
      staticCSP: true,
      transformStaticCSP: csp,
    });
  },
  { name: 'openapi', dependencies: ['config'] },
);
