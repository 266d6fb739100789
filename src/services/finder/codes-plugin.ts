/**
 * Photo codes (docs/contract.md, "Finding one's photos, and intake"), registered right after
 * the store: decorates `fastify.photoCodeRegistry` (the issued codes the finder answers,
 * registry.ts) and `fastify.photoCodes` (issuing codes with their URL and QR, issue.ts; who is
 * told when photos join one, with email's double opt-in, subscriptions.ts).
 */
import fp from 'fastify-plugin';
import type { PhotoCodeRecord } from '../store/ports/photo-codes.js';
import type { PhotoCodeRegistry } from './finder.js';
import { type IssuedCode, issueCodes, qrSvg } from './issue.js';
import { createPhotoCodeRegistry } from './registry.js';
import { type CodeSubscriptions, createCodeSubscriptions } from './subscriptions.js';

export interface PhotoCodes {
  /** `count` fresh codes, recorded (durably) before this resolves. */
  issue(count: number, via: PhotoCodeRecord['issuedVia']): Promise<IssuedCode[]>;
  /** The QR of a code's URL, as SVG. */
  qrSvg(url: string): Promise<string>;
  /** Who is told when photos join a code (subscriptions.ts). */
  readonly subscriptions: CodeSubscriptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    photoCodeRegistry: PhotoCodeRegistry;
    photoCodes: PhotoCodes;
  }
}

export default fp(
  async function photoCodesPlugin(fastify) {
    const port = fastify.store.photoCodes;
    const registry = createPhotoCodeRegistry(port);
    fastify.decorate('photoCodeRegistry', { isIssued: registry.isIssued } satisfies PhotoCodeRegistry);
    fastify.decorate('photoCodes', {
      async issue(count, via) {
        // The public address as saved in the dashboard now: a card must open on the attendee's phone.
        const { publicBaseUrl } = await fastify.businessSettings.get();
        const issued = await issueCodes(port, publicBaseUrl, count, via);
        for (const { code } of issued) registry.remember(code);
        return issued;
      },
      qrSvg,
      subscriptions: createCodeSubscriptions({
        port,
        publicBaseUrl: fastify.config.publicBaseUrl,
        // Looked up when used: the notifier is registered after this plugin.
        kickMail: () => fastify.notifier.kick(),
      }),
    } satisfies PhotoCodes);
  },
  { name: 'photo-codes', dependencies: ['config', 'store', 'business-settings'] },
);
