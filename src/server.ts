/** The only file that listens: picks the logger, starts the app, closes gracefully on SIGTERM/SIGINT. */
import { networkInterfaces } from 'node:os';
import closeWithGrace from 'close-with-grace';
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/env.js';
import { PRIVATE_UMASK } from './lib/data-dir.js';
import { lanUrls, listensOnAll } from './lib/lan.js';
import { signalsRelayedByNpm, stopOnceOn } from './lib/npm-signals.js';

function loggerOptions(level: string): FastifyServerOptions['logger'] {
  const base = {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-captcha-token"]'], censor: '[redacted]' },
  };
  if (process.stdout.isTTY) {
    return {
      ...base,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
    };
  }
  return base;
}

/** A misconfiguration (bad variable, unreachable store, unreadable key) ends start-up with one clear line. */
function exitOnConfigError(err: unknown): void {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}

async function main(): Promise<void> {
  // Files this process creates are its user's only, from the first one (lib/data-dir.ts).
  process.umask(process.umask() | PRIVATE_UMASK);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    exitOnConfigError(err);
    throw err;
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    // A generated admin token is shown on the terminal, and only there (never in a log).
    app = await buildApp(config, loggerOptions(config.LOG_LEVEL), {
      terminal: process.stdout.isTTY ? process.stdout : undefined,
      // A slow start may be well (migrations on a large file, a big library's first read);
      // two minutes still ends one that really hangs.
      pluginTimeout: 120_000,
    });
  } catch (err) {
    // Services start while they are registered: a store that can't be opened ends up here.
    exitOnConfigError(err);
    exitOnConfigError((err as { cause?: unknown }).cause);
    throw err;
  }

  // Under `npm start`, SIGINT and SIGTERM come twice (lib/npm-signals.ts): heard here, not by close-with-grace.
  const relayed = signalsRelayedByNpm(process.env);
  let stopSignal: NodeJS.Signals | undefined;
  const grace = closeWithGrace({ delay: config.SHUTDOWN_GRACE_MS, skip: relayed }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal: signal ?? stopSignal }, 'shutting down');
    await app.close();
  });
  stopOnceOn(relayed, (signal) => {
    stopSignal = signal;
    void grace.close();
  });

  try {
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    exitOnConfigError(err);
    exitOnConfigError(cause);
    app.log.fatal({ err }, 'could not start');
    process.exit(1);
  }
  announce(app, config);
}

/**
 * Where to open the shop: this machine's address, the address phones on the booth's Wi-Fi use
 * (src/lib/lan.ts), and the public one when PUBLIC_BASE_URL names another.
 */
function announce(app: Awaited<ReturnType<typeof buildApp>>, config: ReturnType<typeof loadConfig>): void {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const local = `http://localhost:${port}`;
  app.log.info(`Gallery and shop at ${local}/ (dashboard ${local}/admin, API docs ${local}/docs)`);
  const lan = listensOnAll(config.HOST) ? lanUrls(networkInterfaces(), port) : [];
  for (const url of lan) app.log.info(`On phones and tablets on this Wi-Fi: ${url}`);
  if (config.PUBLIC_BASE_URL && config.publicBaseUrl !== local) {
    app.log.info(`Public address (PUBLIC_BASE_URL): ${config.publicBaseUrl}/`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
