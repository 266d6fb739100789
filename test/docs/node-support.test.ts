/**
 * What the README says about Node versions holds: package.json's `engines` is the supported
 * range, the test suite runs on a Node inside it (CI runs Node 20), every installed package
 * accepts its lowest version and the Docker image's Node, and the README names the same
 * minimum (docs/development.md, "Node versions").
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import semver from 'semver';
import { expect, test } from 'vitest';

const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string } };
const range = pkg.engines.node;
const lowest = semver.minVersion(range)?.version ?? '';
const dockerNode = /^FROM node:(\d+)-slim AS runtime$/m.exec(await readFile('Dockerfile', 'utf8'))?.[1];

test('this suite runs on a supported Node', () => {
  expect(range).toBe('>=20.19');
  expect(semver.satisfies(process.versions.node, range), `${process.versions.node} in ${range}`).toBe(true);
});

test("every installed package accepts the lowest supported Node and the Docker image's", async () => {
  expect(dockerNode).toBeDefined();
  expect(semver.satisfies(`${dockerNode}.12.0`, range)).toBe(true);
  const lock = JSON.parse(await readFile('package-lock.json', 'utf8')) as {
    packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
  };
  const refusing: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    const wants = entry.engines?.node;
    if (!wants || where === '') continue;
    // Optional packages for other platforms (wasm, Windows) are never installed here.
    if (entry.optional && !existsSync(where)) continue;
    for (const node of [lowest, `${dockerNode}.12.0`]) {
      if (!semver.satisfies(node, wants)) refusing.push(`${where} wants ${wants}, not ${node}`);
    }
  }
  expect(refusing).toEqual([]);
});

test('the README names the same minimum', async () => {
  const readme = await readFile('README.md', 'utf8');
  const [major, minor] = lowest.split('.');
  expect(readme).toContain(`Node ${major}.${minor} or newer`);
});
