/** The infrastructure, in the order the app registers it after the configuration (docs/architecture.md, "Wiring"). */
import type { FastifyPluginAsync } from 'fastify';
import errorHandler from '../errors/handler.js';
import dataDir from './data-dir.js';
import httpConventions from './http-conventions.js';
import openapi from './openapi.js';
import readiness from './readiness.js';
import web from './web.js';

export const INFRASTRUCTURE: FastifyPluginAsync[] = [
  dataDir, // private before anything is written to it
  errorHandler,
  httpConventions,
  openapi,
  readiness,
  web, // the browser app; before the gallery routes, whose paths it shares
];
