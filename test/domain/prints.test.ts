import { describe, expect, test } from 'vitest';
import { cropPlan, cropWindow, printFileName, printInches, printPixels, sizeKey } from '../../src/domain/prints.js';

describe('print sizes', () => {
  test('4x6, 5x7 and 8x10 are fixed, whatever the spelling', () => {
    expect(printInches('4x6')).toEqual([4, 6]);
    expect(printInches('5 X 7')).toEqual([5, 7]);
    expect(printInches('8×10')).toEqual([8, 10]);
    // The event cannot redefine them.
    expect(printInches('4x6', { '4x6': [5, 5] })).toEqual([4, 6]);
  });

  test("other sizes: the event's printSizes, else a name that spells inches, else unknown", () => {
    expect(printInches('Wallet', { wallet: [3.5, 2.5] })).toEqual([2.5, 3.5]);
    expect(printInches('11x14')).toEqual([11, 14]);
    expect(printInches('12x8in')).toEqual([8, 12]);
    expect(printInches('Poster')).toBeUndefined();
    expect(printInches('A4')).toBeUndefined();
    expect(sizeKey(' 4 X 6 ')).toBe('4x6');
  });

  test("pixels at 300 dpi in the photo's orientation; square photos print landscape", () => {
    expect(printPixels([4, 6], { width: 6000, height: 4000 })).toEqual({ width: 1800, height: 1200 });
    expect(printPixels([4, 6], { width: 4000, height: 6000 })).toEqual({ width: 1200, height: 1800 });
    expect(printPixels([8, 10], { width: 500, height: 500 })).toEqual({ width: 3000, height: 2400 });
    expect(printPixels([2.5, 3.5], { width: 10, height: 20 })).toEqual({ width: 750, height: 1050 });
  });
});

describe('crop', () => {
  const photo = { width: 6000, height: 4000 };
  const print = { width: 3000, height: 2400 }; // 8x10 landscape: 5:4

  test('the window is the largest of the print aspect; the default centre keeps the middle', () => {
    const w = cropWindow(photo, print);
    expect(w.height).toBeCloseTo(1, 5);
    expect(w.width).toBeCloseTo(5000 / 6000, 3);
    expect(w.left).toBeCloseTo((6000 - 5000) / 2 / 6000, 3);
    expect(w.top).toBe(0);
  });

  test('a centre near an edge moves the window inwards; it never leaves the photo', () => {
    expect(cropWindow(photo, print, { x: 0, y: 0.5 }).left).toBe(0);
    const right = cropWindow(photo, print, { x: 1, y: 0.5 });
    expect(right.left + right.width).toBeCloseTo(1, 3);
    expect(cropWindow(photo, print, { x: 0.2, y: 0.5 }).left).toBe(0);
  });

  test('the plan scales the whole photo so that the window is exactly the print', () => {
    const plan = cropPlan(photo, print, { x: 1, y: 0 });
    expect(plan.scaled).toEqual({ width: 3600, height: 2400 });
    expect(plan).toMatchObject({ left: 600, top: 0 });
    // A photo smaller than the print is scaled up.
    expect(cropPlan({ width: 300, height: 200 }, { width: 1800, height: 1200 }).scaled).toEqual({
      width: 1800,
      height: 1200,
    });
  });
});

test('print file names: order, photo, size and copies, safe on every file system', () => {
  expect(printFileName({ orderNumber: 'AX26-0001', photoNumber: '12', size: '4x6', quantity: 2 })).toBe(
    'AX26-0001_12_4x6_x2.jpg',
  );
  expect(printFileName({ orderNumber: 'AX26-0002', photoNumber: '7', size: '11 × 14 "gallery"', quantity: 1 })).toBe(
    'AX26-0002_7_11-14-gallery_x1.jpg',
  );
});
