/**
 * Digital downloads (docs/contract.md, "Selling"), as `fastify.downloads`: signed links for a
 * paid order's digital lines (tokens.ts), and `open`, which follows one. Without
 * DOWNLOAD_LINK_SECRET the links are signed with a secret generated into
 * DATA_DIR/download-link-secret; several instances must share one.
 */
import { open as openFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDigitalSize } from '../../domain/offers.js';
import type { OrderRecord } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { configuredOrStoredKey } from '../../lib/secret-file.js';
import type { PhotoLibrary } from '../photos/types.js';
import { createDownloadFiles, type DownloadFiles } from './files.js';
import { createStoreGrants, type DownloadGrants, type GrantRefusal, paidAt } from './grants.js';
import { createDownloadLinkSigner, type DownloadLinkSigner } from './tokens.js';

export type DownloadLink = { line: number; photoNumber: string; url: string; expiresAt: string };

export type OpenedDownload = { stream: Readable; size: number; fileName: string; remaining: number };

export interface Downloads {
  readonly links: DownloadLinkSigner;
  readonly files: DownloadFiles;
  /** One link per digital line of the order, valid DOWNLOAD_TTL_DAYS from `paidAt`. */
  linksFor(order: Pick<OrderRecord, 'id' | 'items'>, paidAt: Date): DownloadLink[];
  /** The links of a paid order (paid when it last became paid); none before payment. */
  linksOf(order: OrderRecord): DownloadLink[];
  /**
   * Follows a link. 403 DOWNLOAD_UNAVAILABLE (bad or expired link, order not paid, line not
   * digital, no downloads left), 404 PHOTO_NOT_FOUND (gone from the library, or taken down for
   * good by a `remove` decision; a photo hidden while a takedown request waits is still the
   * buyer's to download, docs/contract.md, "Hardening, round 2"), 503
   * IMAGE_UNAVAILABLE (the original can't be rendered). A download is counted once its file
   * is open.
   */
  open(token: string): Promise<OpenedDownload>;
}

declare module 'fastify' {
  interface FastifyInstance {
    downloads: Downloads;
  }
}

const DOWNLOAD_SECRET_FILE = 'download-link-secret';

const REASONS: Record<GrantRefusal | 'malformed' | 'signature' | 'expired', string> = {
  malformed: 'This is not a download link',
  signature: 'This download link is not valid',
  expired: 'This download link has expired',
  unknownOrder: 'The order of this download link no longer exists',
  notPaid: 'The order is not paid yet: the download opens once it is',
  notDigital: 'This line of the order is not a digital file',
  usedUp: 'This file has been downloaded as many times as allowed',
};

function unavailable(reason: keyof typeof REASONS) {
  return appError('DOWNLOAD_UNAVAILABLE', { message: REASONS[reason], details: { reason } });
}

/** `AX26-12.jpg`: letters, digits, `.`, `_` and `-` only. */
function downloadFileName(prefix: string, photoNumber: string): string {
  return `${prefix}-${photoNumber}`.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) + '.jpg';
}

function createDownloads(deps: {
  links: DownloadLinkSigner;
  grants: DownloadGrants;
  files: DownloadFiles;
  photos: Pick<PhotoLibrary, 'findPhoto' | 'findHiddenPhoto' | 'originalPath' | 'getEvent'>;
  /** Whether a photo was taken down for good (the takedowns record). */
  isRemoved: (eventCode: string, photoId: string) => Promise<boolean>;
  ttlDays: number;
  now?: () => Date;
}): Downloads {
  const now = deps.now ?? (() => new Date());
  function linksFor(order: Pick<OrderRecord, 'id' | 'items'>, paid: Date): DownloadLink[] {
    const expiresAt = new Date(paid.getTime() + deps.ttlDays * 86_400_000);
    return order.items.flatMap((l, i) =>
      isDigitalSize(l.size)
        ? [
            {
              line: i + 1,
              photoNumber: l.photoNumber,
              url: deps.links.url(order.id, i + 1, expiresAt),
              expiresAt: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000).toISOString(),
            },
          ]
        : [],
    );
  }
  /**
   * The photo a paid line names: listed, or hidden while a takedown request waits for the
   * owner's decision (the buyer paid for it before anyone asked); not once it is removed.
   */
  async function soldPhoto(eventSlug: string, number: string) {
    const listed = deps.photos.findPhoto(eventSlug, number);
    if (listed) return listed;
    const hidden = deps.photos.findHiddenPhoto(eventSlug, number);
    if (!hidden || (await deps.isRemoved(hidden.eventCode, hidden.id))) return undefined;
    return hidden;
  }
  return {
    links: deps.links,
    files: deps.files,
    linksFor,
    linksOf(order) {
      const paid = paidAt(order);
      return paid ? linksFor(order, paid) : [];
    },
    async open(token) {
      const link = deps.links.check(token, now());
      if (!link.ok) throw unavailable(link.reason);
      const grant = { orderId: link.orderId, line: link.line };
      const checked = await deps.grants.check(grant);
      if (!checked.ok) throw unavailable(checked.reason);
      const photo = await soldPhoto(checked.eventSlug, checked.photoNumber);
      if (!photo) {
        throw appError('PHOTO_NOT_FOUND', {
          message: `Photo ${checked.photoNumber} is no longer in the library`,
          details: { eventSlug: checked.eventSlug, photoNumber: checked.photoNumber },
        });
      }
      let rendered: { file: string; size: number };
      try {
        rendered = await deps.files.ensure(photo, deps.photos.originalPath(photo));
      } catch (err) {
        throw appError('IMAGE_UNAVAILABLE', { message: 'The file cannot be prepared right now', cause: err });
      }
      // Opened before counting: the handle keeps the file readable even if a newer render replaces it.
      const handle = await openFile(rendered.file, 'r');
      const taken = await deps.grants.take(grant).catch(async (err: unknown) => {
        await handle.close();
        throw err;
      });
      if (!taken.ok) {
        await handle.close();
        throw unavailable(taken.reason);
      }
      const prefix = deps.photos.getEvent(checked.eventSlug)?.prefix ?? 'photo';
      return {
        stream: handle.createReadStream(),
        size: rendered.size,
        fileName: downloadFileName(prefix, photo.number),
        remaining: taken.max - taken.used,
      };
    },
  };
}

async function downloadsPlugin(fastify: FastifyInstance) {
  const { config, store, photos } = fastify;
  fastify.decorate(
    'downloads',
    createDownloads({
      // Links in mail start with the public address as saved now (docs/contract.md, "Business settings").
      links: createDownloadLinkSigner(
        await configuredOrStoredKey(fastify, {
          configured: config.DOWNLOAD_LINK_SECRET,
          fileName: DOWNLOAD_SECRET_FILE,
          what: 'download-link secret',
          encoding: 'base64url',
        }),
        () => fastify.businessSettings.current().publicBaseUrl,
      ),
      grants: createStoreGrants({
        orders: store.orders,
        grants: store.downloadGrants,
        max: config.DOWNLOAD_MAX,
        ttlDays: config.DOWNLOAD_TTL_DAYS,
      }),
      files: createDownloadFiles(config.dataDir),
      photos,
      isRemoved: (eventCode, photoId) => store.takedowns.isRemoved(eventCode, photoId),
      ttlDays: config.DOWNLOAD_TTL_DAYS,
    }),
  );
}

export default fp(downloadsPlugin, {
  name: 'downloads',
  dependencies: ['config', 'store', 'photos', 'business-settings'],
});
