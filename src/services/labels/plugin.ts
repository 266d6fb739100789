/**
 * Shipping labels (docs/contract.md, "Labels"), decorated as `fastify.labels`. The return address is
 * RETURN_ADDRESS (lines separated by `\n`). The label routes and the receipt mail use
 * this interface only; nothing else touches sharp or docx for labels.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLabelRenderer } from './renderer.js';
import type { LabelRenderer } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    labels: LabelRenderer;
  }
}

async function labelsPlugin(fastify: FastifyInstance) {
  fastify.decorate('labels', createLabelRenderer({ returnAddress: fastify.config.RETURN_ADDRESS }));
}

export default fp(labelsPlugin, { name: 'labels', dependencies: ['config'] });
