/**
 * What `npm start` does before the server runs (scripts/start.mjs): it reads `.env` in the
 * project folder when there is one (the environment wins), and shows progress while a build
 * step runs (scripts/progress.mjs), since tsc and vite print nothing until they are done.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/build.js';

const run = promisify(execFile);
const ENV_FILE = new URL('../../scripts/env-file.mjs', import.meta.url).href;
const PROGRESS = new URL('../../scripts/progress.mjs', import.meta.url).href;
/** Back to the line's start, and the line cleared: how a terminal's progress line is redrawn. */
const REDRAW = '\r\u001b[2K';

describe('.env', () => {
  test('its variables are read when the project folder has one; a variable set in the environment wins; no file, nothing', async (t) => {
    const dir = await tempDir(t);
    await writeFile(
      path.join(dir, '.env'),
      '# the photographer\'s settings\nPORT=4123\nBUSINESS_NAME="Jane Doe Photography"\nRETURN_ADDRESS=Jane\\n1 Elm St\nADMIN_TOKENS=from-file-0123456789abcdefghij\n',
    );
    const script = `
      const { loadProjectEnv } = await import(${JSON.stringify(ENV_FILE)});
      const file = loadProjectEnv(process.argv[1]);
      const { PORT, BUSINESS_NAME, RETURN_ADDRESS, ADMIN_TOKENS } = process.env;
      console.log(JSON.stringify({ file, PORT, BUSINESS_NAME, RETURN_ADDRESS, ADMIN_TOKENS }));`;
    const env = { PATH: process.env.PATH, ADMIN_TOKENS: 'from-environment-0123456789abcdef' };
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, dir], { env });
    expect(JSON.parse(stdout)).toEqual({
      file: path.join(dir, '.env'),
      PORT: '4123',
      BUSINESS_NAME: 'Jane Doe Photography',
      // Unquoted: the two characters \n, which the server's configuration reads as a line break.
      RETURN_ADDRESS: 'Jane\\n1 Elm St',
      ADMIN_TOKENS: 'from-environment-0123456789abcdef',
    });
    const empty = await tempDir(t);
    const none = await run(process.execPath, ['--input-type=module', '-e', script, empty], { env });
    expect(JSON.parse(none.stdout)).toEqual({ file: null, ADMIN_TOKENS: 'from-environment-0123456789abcdef' });
  });
});

describe('build progress', () => {
  test('says what runs at once, then how long, against the last run when known; on a terminal in place', async (t) => {
    const { progressText, runWithProgress } = await import(PROGRESS);
    expect(progressText('Building the server', 3_000)).toBe(
      'Building the server: 3 s (the first build takes a minute or two)',
    );
    expect(progressText('Building the server', 10_000, 40_000)).toBe(
      'Building the server: [#####---------------] 10 s of about 40 s',
    );
    // Past the last run's time the bar waits at its end rather than running over.
    expect(progressText('Building the server', 90_000, 40_000)).toContain('[###################-] 90 s of about 40 s');

    const out = Object.assign(new PassThrough(), { isTTY: true });
    let written = '';
    // A step that prints nothing, like tsc, and runs until the test has seen the line redrawn.
    const done = path.join(await tempDir(t), 'done');
    out.on('data', (b: Buffer) => {
      written += b.toString();
      if (written.includes(`${REDRAW}Building the server: [`)) void writeFile(done, '');
    });
    const wait = `const fs = require('node:fs'); const t = setInterval(() => fs.existsSync(${JSON.stringify(done)}) && clearInterval(t), 20);`;
    const result = await runWithProgress(process.execPath, ['-e', wait], {
      label: 'Building the server',
      expectedMs: 60_000,
      out,
      everyMs: 50,
    });
    expect(result.code).toBe(0);
    expect(written.startsWith('Building the server…\n')).toBe(true);
    const redrawn = written.split(REDRAW).filter((l) => l.startsWith('Building the server: ['));
    expect(redrawn[0]).toMatch(/^Building the server: \[#*-+\] \d+ s of about 60 s$/);
    expect(written.endsWith(REDRAW)).toBe(true);

    const failed = await runWithProgress(process.execPath, ['-e', 'process.exit(3)'], {
      label: 'Building',
      out: new PassThrough(),
    });
    expect(failed.code).toBe(3);
  });
});
