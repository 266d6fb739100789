/**
 * Shipping labels (docs/contract.md, "Labels"), as `fastify.labels`. The return address is
 * read for each file, so an owner's save applies to the next label on every server. The
 * label routes and the receipt mail use this interface only; nothing else touches sharp or
 * docx for labels.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createEventBatch } from './batch.js';
import { createLabelRenderer } from './renderer.js';
import type { LabelRenderer, Labels } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    labels: Labels;
  }
}

async function labelsPlugin(fastify: FastifyInstance) {
  const settings = fastify.businessSettings;
  // One renderer per return address (each keeps its drawn return address); an address changes rarely.
  const renderers = new Map<string, LabelRenderer>();
  const rendererFor = (returnAddress: string): LabelRenderer => {
    let r = renderers.get(returnAddress);
    if (!r) {
      if (renderers.size >= 8) renderers.clear();
      r = createLabelRenderer({ returnAddress });
      renderers.set(returnAddress, r);
    }
    return r;
  };
  const current = async () => rendererFor((await settings.get()).returnAddress);
  const renderer: LabelRenderer = {
    png: async (order) => (await current()).png(order),
    docx: async (order) => (await current()).docx(order),
    batchDocx: async (orders, title) => (await current()).batchDocx(orders, title),
    batchPdf(orders, opts) {
      if (orders.length === 0) throw new Error('batch labels need at least one order');
      return current().then((r) => r.batchPdf(orders, opts));
    },
  };
  const eventBatch = createEventBatch({
    renderer,
    orders: fastify.store.orders,
    events: fastify.events,
    photos: fastify.photos,
    images: fastify.images,
    log: fastify.log,
  });
  fastify.decorate('labels', { ...renderer, eventBatch } satisfies Labels);
}

export default fp(labelsPlugin, {
  name: 'labels',
  dependencies: ['config', 'business-settings', 'store', 'events', 'photos', 'images'],
});
