/**
 * `npm start`: builds what changed since the last build (scripts/build.mjs), then runs the
 * server in this same process, so a restart with nothing changed costs one Node start-up,
 * not three (docs/development.md, "Restarts"). Production runs `node dist/server.js`.
 */
import { build } from './build.mjs';

build({ ifChanged: true });
await import('../dist/server.js');
