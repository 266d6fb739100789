/**
 * Serves the browser app (dist/web): hashed assets, the app's pages, and index.html for a
 * browser navigating to a gallery path (docs/contract.md, "Gallery": browsers and JSON share
 * the gallery's paths). The check is a route-level hook on the gallery routes only, so the JSON
 * hot path pays two `indexOf`s. Nothing loads from another host (the booth may be offline),
 * and the Content-Security-Policy says so. Without a build, pages answer a note on building it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config/env.js';
import { named } from '../lib/plugin-name.js';

/** The built app's index.html and the headers every page of it carries. */
export type AppDocument = {
  readonly index: Buffer;
  readonly headers: Readonly<Record<string, string>>;
  /** Sends the page (503 and a note while the app is not built), `head` added at the end of its `<head>`. */
  send(reply: FastifyReply, status?: number, head?: string): FastifyReply;
};

/** Answers a gallery path with the app's document (and more); false passes to the next answer. */
export type NavigationAnswer = (
  request: FastifyRequest,
  reply: FastifyReply,
  document: AppDocument,
) => boolean | Promise<boolean>;

/**
 * A gallery page that is more than index.html. `all-but-json` also answers clients that don't
 * ask for JSON, as link-preview fetchers send `Accept: *\/*` or none (routes/gallery/photo-link.ts).
 */
export type AppPage = { requests: 'navigations' | 'all-but-json'; answer: NavigationAnswer };

declare module 'fastify' {
  interface FastifyInstance {
    appPages: { add(page: AppPage): void };
  }
}

/** `<package>/dist/web` from both `src/plugins` (tsx) and `dist/plugins` (compiled). */
function defaultWebDir(): string {
  return fileURLToPath(new URL('../../dist/web', import.meta.url));
}

/** A browser navigation: `text/html` accepted, and before any `application/json`. */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const html = accept.indexOf('text/html');
  if (html === -1) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || html < json;
}

const GALLERY_ROUTE = /^\/event(\/|$)/;

/** Hosts a hosted CAPTCHA widget loads from; ALTCHA (the default) needs none. */
const CAPTCHA_SOURCES: Record<string, string[]> = {
  turnstile: ['https://challenges.cloudflare.com'],
  hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  recaptcha: ['https://www.google.com', 'https://www.gstatic.com'],
};

export function contentSecurityPolicy(config: Pick<Config, 'CAPTCHA_PROVIDER'>): string {
  const extra = (CAPTCHA_SOURCES[config.CAPTCHA_PROVIDER] ?? []).join(' ');
  const withExtra = (base: string) => (extra ? `${base} ${extra}` : base);
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval': the dashboard's QR scanner compiles its WebAssembly decoder (our own
    // file) where the browser has no BarcodeDetector; it allows WebAssembly, not JS eval.
    withExtra("script-src 'self' 'wasm-unsafe-eval'"),
    withExtra("style-src 'self' 'unsafe-inline'"),
    "img-src 'self' data: blob:",
    withExtra("connect-src 'self'"),
    withExtra("frame-src 'self'"),
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Web app not built</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5">
<h1>The web app is not built</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds first), then reload.
For development, <code>npm run dev:web</code> serves it with hot reload.</p>
<p>The API works meanwhile: <a href="/docs">/docs</a>.</p>
</body></html>
`;

function wantsJson(accept: string | undefined): boolean {
  return (accept?.includes('application/json') ?? false) && !prefersHtml(accept);
}

const APP_PAGES = [
  '/',
  '/favorites',
  '/checkout',
  '/order',
  '/order/:orderNumber',
  '/code',
  '/me/:code',
  '/admin',
  '/admin/*',
];

/** index.html with `head` added at the end of its `<head>`; a `<title>` in it replaces the page's. */
function withHead(index: Buffer, head: string): Buffer {
  let html = index.toString('utf8');
  if (head.includes('<title>')) html = html.replace(/<title>[^<]*<\/title>/, '');
  return Buffer.from(html.replace('</head>', `${head}\n</head>`));
}

export default fp(
  async function web(fastify) {
    const config = fastify.config;
    const root = path.resolve(config.WEB_DIR ?? defaultWebDir());
    const indexFile = path.join(root, 'index.html');
    const built = existsSync(indexFile);
    if (!built) {
      fastify.log.warn({ root }, 'web app not built: run `npm run build`; pages answer a note until then');
    }
    const index = built ? readFileSync(indexFile) : Buffer.from(NOT_BUILT);
    const pageHeaders = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': contentSecurityPolicy(config),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    };

    function sendPage(reply: FastifyReply, status = 200, head = ''): FastifyReply {
      return reply
        .code(built ? status : 503)
        .headers(pageHeaders)
        .send(head && built ? withHead(index, head) : index);
    }

    const document: AppDocument = { index, headers: pageHeaders, send: sendPage };
    const pages: AppPage[] = [];
    let pagesForAll = 0;
    fastify.decorate('appPages', {
      add(page: AppPage) {
        // Stable: `all-but-json` pages first, each kind in the order added.
        pages.splice(page.requests === 'all-but-json' ? pagesForAll++ : pages.length, 0, page);
      },
    });

    // Registered before the gallery routes (app.ts), so every one of them gets the hook.
    const negotiate: onRequestAsyncHookHandler = async (request, reply) => {
      reply.header('vary', 'Accept');
      const accept = request.headers.accept;
      const navigation = prefersHtml(accept);
      if (!navigation && (pagesForAll === 0 || wantsJson(accept))) return;
      for (const page of pages) {
        if (page.requests === 'navigations' && !(navigation && built)) continue;
        if (await page.answer(request, reply, document)) return reply;
      }
      if (navigation) return sendPage(reply);
    };
    fastify.addHook('onRoute', (route) => {
      if (!GALLERY_ROUTE.test(route.url)) return;
      const methods = ([] as string[]).concat(route.method);
      if (!methods.includes('GET') && !methods.includes('HEAD')) return;
      const existing = route.onRequest ? ([] as onRequestAsyncHookHandler[]).concat(route.onRequest as never) : [];
      if (existing.includes(negotiate)) return;
      route.onRequest = [negotiate, ...existing];
    });

    async function webRoutes(app: FastifyInstance): Promise<void> {
      if (built) {
        await app.register(fastifyStatic, {
          root,
          prefix: '/',
          wildcard: false,
          index: false,
          decorateReply: false,
          preCompressed: true,
          cacheControl: false,
          globIgnore: ['index.html', '**/*.br', '**/*.gz'],
          setHeaders: (res, filePath) => {
            const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
            res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
            res.header('x-content-type-options', 'nosniff');
          },
        });
      }

      const hidden = { schema: { hide: true } };
      for (const url of APP_PAGES) {
        app.get(url, hidden, async (_request, reply) => sendPage(reply));
      }

      // A browser navigating to a path nobody serves gets the app with 404; the rest, JSON 404.
      app.get('/*', hidden, async (request: FastifyRequest, reply: FastifyReply) => {
        const url = request.url;
        if (url.startsWith('/api/') || url === '/api' || !prefersHtml(request.headers.accept)) {
          return reply.callNotFound();
        }
        return sendPage(reply, 404);
      });
    }
    await fastify.register(named(webRoutes));
  },
  { name: 'web', dependencies: ['config'] },
);
