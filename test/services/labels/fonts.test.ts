import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { FONT_FAMILY, FONT_FILES } from '../../../src/lib/font.js';
import { LABEL_HEIGHT, LABEL_WIDTH, REGIONS } from '../../../src/services/labels/png.js';
import { createLabelRenderer } from '../../../src/services/labels/renderer.js';
import { tempDir } from '../../helpers/build.js';
import { greyPixels, inkIn, labelOrder, RETURN_ADDRESS } from '../../support/labels-fixtures.js';

const run = promisify(execFile);

describe('label font', () => {
  test('is Noto Sans JP, shipped in node_modules', () => {
    expect(FONT_FAMILY).toBe('Noto Sans JP');
    for (const file of Object.values(FONT_FILES)) {
      expect(file).toContain(`${path.sep}node_modules${path.sep}@expo-google-fonts${path.sep}noto-sans-jp${path.sep}`);
      expect(existsSync(file)).toBe(true);
    }
  });

  test('a machine with no system fonts at all draws the same label', async (t) => {
    const dir = await tempDir(t);
    // A fontconfig set-up that knows no font: only what the renderer brings is available.
    const conf = path.join(dir, 'fonts.conf');
    await writeFile(
      conf,
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><cachedir>${dir}/cache</cachedir></fontconfig>\n`,
    );
    const over = { customerName: '山田 太郎 (Élodie Müller)', shippingAddress: '1-2-3 Ginza & Co <Annex>' };
    const out = path.join(dir, 'label.png');
    const child = path.resolve('test/support/labels-render-child.ts');
    await run(process.execPath, ['--import', 'tsx', child, out, JSON.stringify(over)], {
      env: { ...process.env, FONTCONFIG_FILE: conf, FONTCONFIG_PATH: dir },
      timeout: 80_000,
    });
    const isolated = await greyPixels(await readFile(out));
    const here = await greyPixels(
      (await createLabelRenderer({ returnAddress: RETURN_ADDRESS }).png(labelOrder(over))).content,
    );
    for (const region of [REGIONS.topLine, REGIONS.returnAddress, REGIONS.recipient]) {
      const a = inkIn(isolated, region);
      const b = inkIn(here, region);
      expect(a.count, JSON.stringify(region)).toBeGreaterThan(500);
      // Same glyphs in the same places; only hinting (a fontconfig setting) may differ a little.
      expect(Math.abs(a.count - b.count) / b.count).toBeLessThan(0.06);
      for (const edge of ['left', 'top', 'right', 'bottom'] as const)
        expect(Math.abs(a[edge] - b[edge])).toBeLessThanOrEqual(2);
    }
    let diff = 0;
    for (let i = 0; i < LABEL_WIDTH * LABEL_HEIGHT; i++)
      diff += Math.abs((isolated.data[i] as number) - (here.data[i] as number));
    expect(diff / (LABEL_WIDTH * LABEL_HEIGHT)).toBeLessThan(1);
  }, 90_000);
});
