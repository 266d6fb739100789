/**
 * Print geometry (docs/contract.md, "Fulfilment"): how big a print file is (300 dpi, in the
 * photo's orientation) and which part of the photo it keeps (the largest window of the print's
 * aspect, centred on the line's crop centre and moved inwards). Pure arithmetic, shared by the
 * print renderer, the cart's crop chooser and the tests.
 */
import { z } from 'zod';

export const PRINT_DPI = 300;

/** The crop window's centre, as fractions of the photo's width and height (0 = left / top). */
export const Crop = z.object({
  x: z.number().min(0).max(1).describe('Horizontal centre of the crop window, 0 (left edge) to 1 (right edge)'),
  y: z.number().min(0).max(1).describe('Vertical centre of the crop window, 0 (top edge) to 1 (bottom edge)'),
});
export type Crop = z.infer<typeof Crop>;

const DEFAULT_CROP: Readonly<Crop> = Object.freeze({ x: 0.5, y: 0.5 });

/** Inches `[short side, long side]` (either order is accepted on input). */
export type Inches = readonly [number, number];
export type PrintSizes = Readonly<Record<string, Inches>>;

/** The sizes every event knows, whatever its settings say. */
const STANDARD_PRINT_SIZES: PrintSizes = Object.freeze({ '4x6': [4, 6], '5x7': [5, 7], '8x10': [8, 10] });

/** The event.json `printSizes` value: size name → `[width, height]` in inches. */
export const PrintSizesSetting = z.record(
  z.string().trim().min(1).max(40),
  z.tuple([z.number().positive().max(100), z.number().positive().max(100)]),
);

/** "4X6", "4 x 6", "4×6" → "4x6": how sizes are compared. */
export function sizeKey(size: string): string {
  return size.toLowerCase().replace(/\s+/g, '').replaceAll('×', 'x');
}

const SPELLED = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(?:in|")?$/;

/**
 * The inches of a print size, short side first: the fixed table, then the event's
 * `printSizes`, then the name itself when it spells inches; undefined when nothing says.
 */
export function printInches(size: string, eventSizes: PrintSizes = {}): Inches | undefined {
  const key = sizeKey(size);
  const fromTable = (table: PrintSizes) => Object.entries(table).find(([name]) => sizeKey(name) === key)?.[1];
  let inches = fromTable(STANDARD_PRINT_SIZES) ?? fromTable(eventSizes);
  if (!inches) {
    const m = SPELLED.exec(key);
    if (m) inches = [Number(m[1]), Number(m[2])];
  }
  if (!inches || !(inches[0] > 0 && inches[1] > 0)) return undefined;
  return inches[0] <= inches[1] ? [inches[0], inches[1]] : [inches[1], inches[0]];
}

export type Dimensions = { width: number; height: number };

/** Pixels of a print at 300 dpi, in the photo's orientation (square photos print landscape). */
export function printPixels(inches: Inches, photo: Dimensions): Dimensions {
  const short = Math.round(inches[0] * PRINT_DPI);
  const long = Math.round(inches[1] * PRINT_DPI);
  return photo.height > photo.width ? { width: short, height: long } : { width: long, height: short };
}

/**
 * How to make a `print`-sized image of `photo` around `crop`: scale the whole photo to
 * `scaled` (so that the window becomes exactly the print), then cut the print out at
 * `left`, `top`. Scaling first lets a JPEG decoder shrink while it reads.
 */
export function cropPlan(photo: Dimensions, print: Dimensions, crop: Crop = DEFAULT_CROP) {
  const aspect = print.width / print.height;
  // The largest window of the print's aspect inside the photo, in photo pixels.
  const windowWidth = photo.width / photo.height > aspect ? photo.height * aspect : photo.width;
  const scale = print.width / windowWidth;
  const scaled = {
    width: Math.max(print.width, Math.round(photo.width * scale)),
    height: Math.max(print.height, Math.round(photo.height * scale)),
  };
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v)));
  return {
    scaled,
    left: clamp(crop.x * scaled.width - print.width / 2, scaled.width - print.width),
    top: clamp(crop.y * scaled.height - print.height / 2, scaled.height - print.height),
  };
}

/** The same window as fractions of the photo (left, top, width, height): what the cart draws. */
export function cropWindow(photo: Dimensions, print: Dimensions, crop: Crop = DEFAULT_CROP) {
  const plan = cropPlan(photo, print, crop);
  return {
    left: plan.left / plan.scaled.width,
    top: plan.top / plan.scaled.height,
    width: print.width / plan.scaled.width,
    height: print.height / plan.scaled.height,
  };
}

/** Letters, digits, `.` and `-` only, so that a file name is safe on every file system. */
function fileNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}

/** A print file's name: `<orderNumber>_<photoNumber>_<size>_x<quantity>.jpg`. */
export function printFileName(line: { orderNumber: string; photoNumber: string; size: string; quantity: number }) {
  return `${fileNamePart(line.orderNumber)}_${fileNamePart(line.photoNumber)}_${fileNamePart(line.size)}_x${line.quantity}.jpg`;
}
