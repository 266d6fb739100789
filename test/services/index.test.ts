/**
 * The services' registration (src/services/index.ts): each is a named plugin whose
 * `dependencies` come before it in the order the app registers the layers, and Fastify itself
 * refuses a service registered before one it needs, naming both.
 */
import Fastify from 'fastify';
import { expect, test } from 'vitest';
import configPlugin from '../../src/plugins/config.js';
import { INFRASTRUCTURE } from '../../src/plugins/index.js';
import readiness from '../../src/plugins/readiness.js';
import { SERVICES } from '../../src/services/index.js';
import push from '../../src/services/push/plugin.js';
import { tempDir, testConfig } from '../helpers/build.js';

type Meta = { name?: string; dependencies?: string[] };
const metaOf = (plugin: object): Meta =>
  (plugin as { [key: symbol]: Meta | undefined })[Symbol.for('plugin-meta')] ?? {};

test('every service is named and registered after the plugins it depends on', () => {
  const registered: string[] = [];
  const misplaced: string[] = [];
  for (const plugin of [configPlugin, ...INFRASTRUCTURE, ...SERVICES]) {
    const { name, dependencies = [] } = metaOf(plugin);
    expect(name, 'every plugin of the first two layers has a name').toBeTypeOf('string');
    for (const dependency of dependencies) {
      if (!registered.includes(dependency)) misplaced.push(`${name} needs ${dependency}`);
    }
    registered.push(name as string);
  }
  expect(misplaced).toEqual([]);
  expect(new Set(registered).size).toBe(registered.length);
  // The store first among the services: Fastify closes in reverse order, so it closes last.
  expect(metaOf(SERVICES[0] as object).name).toBe('store');
});

test('a service registered before a plugin it needs stops start-up, naming both', async (t) => {
  const app = Fastify();
  t.onTestFinished(() => app.close());
  app.register(configPlugin, { config: testConfig(await tempDir(t)) });
  app.register(readiness);
  app.register(push); // needs the store, not registered
  await expect(app.ready()).rejects.toMatchObject({
    code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
    message: expect.stringMatching(/'store'.*'push'/),
  });
});
