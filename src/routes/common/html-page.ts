/**
 * The small HTML pages of the confirmation links a person opens from a mail (docs/contract.md,
 * "Notifications"). They load nothing, post only to this site, and send no Referer onwards
 * (the token is in the URL). Every value given is HTML already: callers escape what they put in.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseMailbox } from '../../adapters/mail.js';
import { escapeHtml } from '../../lib/escape.js';

export const FORM = 'application/x-www-form-urlencoded';

/** An OpenAPI response that is one of these pages. */
export const htmlResponse = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/** Parses the pages' form posts (`token=...`, small) in the calling plugin's scope only. */
export function acceptTokenForms(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/** The shop's name the pages show: MAIL_FROM's display name. */
export const siteNameOf = (mailFrom: string) => parseMailbox(mailFrom).name || 'Convention Photos';

export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Robots-Tag': 'noindex',
};

/** Sends one of these pages with its status and headers. */
export const sendPage = (reply: FastifyReply, page: { status: number; html: string }) =>
  reply.code(page.status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(page.html);

export type HtmlPage<Code extends string> = { status: 200 | 403 | 404 | 409 | 410; code: Code; html: string };

export const p = (html: string) => `<p>${html}</p>`;

export function tokenForm(action: string, token: string, label: string): string {
  return [
    `<form method="post" action="${action}">`,
    `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
    `<button type="submit">${escapeHtml(label)}</button>`,
    '</form>',
  ].join('\n');
}

/** A whole page: `body` and `links` are HTML; `links` are the anchors under it. */
export function htmlPage<Code extends string>(
  siteName: string,
  status: HtmlPage<Code>['status'],
  code: Code,
  title: string,
  body: string[],
  links: string[],
): HtmlPage<Code> {
  const good = status === 200;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(siteName)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#222;margin:0}
header{background:#1f2937;padding:.8rem 1rem}
header a{color:#fff;font-weight:600;text-decoration:none}
main{max-width:32rem;margin:1.5rem auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
h1{font-size:1.4rem;margin-top:0;color:${good ? '#1b6e34' : '#9b2c2c'}}
ul{padding-left:1.2rem}
button{font:inherit;font-size:1.1rem;background:#1b6e34;color:#fff;border:0;border-radius:6px;padding:.7rem 1.4rem;cursor:pointer}
.links{display:flex;gap:1.2rem;flex-wrap:wrap;margin-top:1.5rem}
.links a{color:#1d4ed8}
.code,.muted{color:#555;font-size:.85rem}
</style>
</head>
<body>
<header><a href="/">${escapeHtml(siteName)}</a></header>
<main data-code="${code}">
<h1>${escapeHtml(title)}</h1>
${body.join('\n')}
${good ? '' : `<p class="code">Code: ${code}</p>`}
<nav class="links">${links.join('\n')}</nav>
</main>
</body>
</html>
`;
  return { status, code, html };
}
