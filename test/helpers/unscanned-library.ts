/**
 * Routes on a photo library that has not scanned yet: what a large cold start looks like.
 * One photo, `Con/D/S/a.jpg`, is on disk; `library.start()` runs the first scan.
 */
import path from 'node:path';
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TestContext } from 'vitest';
import errorHandler from '../../src/errors/handler.js';
import configPlugin from '../../src/plugins/config.js';
import { createPhotoLibrary, type ManagedPhotoLibrary } from '../../src/services/photos/library.js';
import { makeImage, recordingLogger, sqliteCatalogue, writePhoto } from '../support/photos-fixtures.js';
import { tempDir, testConfig } from './build.js';

export async function unscannedLibraryApp(
  t: TestContext,
  routes: FastifyPluginAsync,
): Promise<{ app: ReturnType<typeof Fastify>; library: ManagedPhotoLibrary }> {
  const dir = await tempDir(t);
  await writePhoto(path.join(dir, 'photos'), ['Con', 'D', 'S', 'a.jpg'], await makeImage());
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const config = testConfig(dir);
  await app.register(configPlugin, { config });
  await app.register(errorHandler);
  const library = createPhotoLibrary({
    photosDir: config.photosDir,
    dataDir: dir,
    catalogue: await sqliteCatalogue(t, dir),
    log: recordingLogger(),
    rescanIntervalMs: 0,
    watch: false,
  });
  app.decorate('photos', library);
  await app.register(routes);
  t.onTestFinished(async () => {
    await app.close();
    await library.close();
  });
  return { app, library };
}
