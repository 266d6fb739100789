/**
 * A plugin named for Fastify with its function's name (what Fastify would find anyway): for an
 * unnamed plugin Fastify searches all of require.cache for its name, twice at every register.
 */
const DISPLAY_NAME = Symbol.for('fastify.display-name');

export const named = <P extends (...args: never[]) => unknown>(plugin: P): P =>
  Object.assign(plugin, { [DISPLAY_NAME]: plugin.name });
