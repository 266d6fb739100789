// Runs src/launcher.ts's runAsChild on the stand-in server, as scripts/start.mjs does on Linux.
import { fileURLToPath } from 'node:url';
import { runAsChild } from '../../src/launcher.js';

const server = fileURLToPath(new URL('./launcher-server.mjs', import.meta.url));
process.exitCode = await runAsChild(server, process.env);
