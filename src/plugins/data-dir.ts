/**
 * DATA_DIR made private at start, before the store opens its database (lib/data-dir.ts;
 * docs/contract.md, "Hardening"). What had to be narrowed is logged: a DATA_DIR left
 * readable is worth knowing about.
 */
import fp from 'fastify-plugin';
import { makeDataDirPrivate, type PrivateDirReport } from '../lib/data-dir.js';

export default fp(
  async function dataDir(fastify) {
    const { dataDir: dir, photosDir } = fastify.config;
    let report: PrivateDirReport;
    try {
      report = await makeDataDirPrivate(dir, { leaveAlone: [photosDir] });
    } catch (err) {
      // Not a folder, or not ours to create: the store, next, stops start-up naming DATA_DIR.
      fastify.log.warn({ dataDir: dir, err: (err as Error).message }, 'DATA_DIR could not be made private');
      return;
    }
    if (report.tightened.length > 0) {
      fastify.log.warn(
        { dataDir: dir, files: report.tightened.length, checked: report.walked },
        'DATA_DIR was readable by other users; it and what it holds are now private to this user',
      );
    }
    if (report.failed.length > 0) {
      fastify.log.warn(
        { dataDir: dir, failed: report.failed.slice(0, 20), count: report.failed.length },
        'could not make these files in DATA_DIR private; chmod them (files 600, folders 700) by hand',
      );
    }
  },
  { name: 'data-dir', dependencies: ['config'] },
);
