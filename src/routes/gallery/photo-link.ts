/**
 * A photo's own link, `/event/{code}/photo/{number}` (docs/contract.md, "Gallery"): the app's
 * page with Open Graph tags, so a shared link shows the photo (the watermarked preview, never
 * the original). It shares the session route's path (src/plugins/web.ts, `appPages`).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../lib/escape.js';
import { galleryPath, photoItemBuilder } from './photo-item.js';
import { findByRef } from './photo-locate.js';

const PHOTO_LINK = /^\/event\/([^/?#]+)\/photo\/([^/?#]+)\/?(?:[?#]|$)/;

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** `<meta property=... content=...>` lines, every value escaped. */
function metaTags(tags: [string, string][]): string {
  return tags
    .map(([k, v]) => `<meta ${k.startsWith('og:') ? 'property' : 'name'}="${k}" content="${escapeHtml(v)}">`)
    .join('\n');
}

const photoLinkRoutes: FastifyPluginAsync = async (fastify) => {
  const { photos: library, events, businessSettings } = fastify;
  const previewSize = fastify.config.PREVIEW_SIZE;

  async function head(request: FastifyRequest): Promise<string | null> {
    const m = PHOTO_LINK.exec(request.url);
    const code = m && decoded(m[1] as string);
    const ref = m && decoded(m[2] as string);
    if (!code || !ref) return null;
    const photo = findByRef(library, code, ref);
    const event = photo ? await events.get(code) : undefined;
    if (!photo || !event) return null;
    const business = await businessSettings.get();
    const base = business.publicBaseUrl;
    const preview = photoItemBuilder(base).imageUrl('preview', photo);
    // The preview's pixel size: the long edge is PREVIEW_SIZE (never enlarged).
    const scale = Math.min(1, previewSize / Math.max(photo.width, photo.height, 1));
    const title = `Photo #${photo.number} · ${event.name}`;
    const description = `${[photo.day, photo.session].filter(Boolean).join(' · ')}. Order prints from ${business.businessName}.`;
    return [
      `<title>${escapeHtml(title)}</title>`,
      metaTags([
        ['description', description],
        ['og:type', 'website'],
        ['og:site_name', business.businessName],
        ['og:title', title],
        ['og:description', description],
        ['og:url', `${base}${galleryPath(photo.eventCode)}/photo/${encodeURIComponent(photo.number)}`],
        ['og:image', preview],
        ['og:image:width', String(Math.round(photo.width * scale))],
        ['og:image:height', String(Math.round(photo.height * scale))],
        ['og:image:alt', `${title} (watermarked preview)`],
        ['twitter:card', 'summary_large_image'],
      ]),
    ].join('\n');
  }

  fastify.appPages.add({
    requests: 'all-but-json',
    async answer(request, reply, document) {
      if (!PHOTO_LINK.test(request.url)) return false;
      const tags = await head(request);
      document.send(reply, tags === null ? 404 : 200, tags ?? '');
      return true;
    },
  });
};

export default photoLinkRoutes;
