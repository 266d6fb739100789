/**
 * The one logger type every module takes: Fastify's, which is pino's. Plugins pass
 * `fastify.log` (or a child); scripts and benches pass `pino()`; whoever wants none passes
 * `silentLogger`.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';

export type Logger = FastifyBaseLogger;

export const silentLogger: Logger = pino({ level: 'silent' });
