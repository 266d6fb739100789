/**
 * `npm run bench -- phone-bytes`
 *
 * Bytes to the phone: a 50-thumbnail gallery page for a client that accepts WebP against
 * the JPEG page, rendered exactly as the server renders them (services/images/render.ts)
 * from 24-megapixel originals (generated here, cached in the temp folder between runs).
 *   - bytes: WebP page ≤ 0.7x the JPEG page;
 *   - quality: SSIM ≥ 0.97 for every WebP thumbnail against a lossless render of the same
 *     size (the same pipeline, raw pixels out), computed here with ssim.js; the JPEG's SSIM
 *     is shown beside it;
 *   - time: rendering a WebP thumbnail from the original ≤ 1.5x rendering the JPEG one (the
 *     pure encode ratio is shown too). AVIF's encode time is measured for the record: it
 *     is why the server does not offer AVIF.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { makeFrame } from '../test/support/qr-frames.js';
import { importBuilt } from './lib/built.js';
import { type BenchRow, median, printReport } from './lib/report.js';

type RenderModule = typeof import('../src/services/images/render.js');

const PHOTOS = 50;
const DISTINCT = 10;
const CACHE = path.join(os.tmpdir(), 'phone-bytes-bench-originals-v1');

async function originals(): Promise<string[]> {
  await mkdir(CACHE, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const file = path.join(CACHE, `scene-${i}.jpg`);
    const exists = await stat(file).then(
      () => true,
      () => false,
    );
    if (!exists) await writeFile(file, await makeFrame({ payload: '', qrFraction: 0, seed: 500 + i, quality: 92 }));
    files.push(file);
  }
  return files;
}

async function rgba(body: Buffer, width: number, height: number) {
  const { data } = await sharp(body)
    .resize(width, height, { fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width, height };
}

export default async function phoneBytesBench(): Promise<void> {
  const { renderImage, QUALITY, WEBP_EFFORT } = await importBuilt<RenderModule>('services/images/render.js');
  const files = await originals();
  const size = 400;
  let jpegBytes = 0;
  let webpBytes = 0;
  const ssimWebp: number[] = [];
  const ssimJpeg: number[] = [];
  const jpegMs: number[] = [];
  const webpMs: number[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const file = files[i % DISTINCT] as string;
    let t = performance.now();
    const jpeg = await renderImage(file, { size, format: 'jpeg', quality: QUALITY.thumbnail.jpeg });
    jpegMs.push(performance.now() - t);
    t = performance.now();
    const webp = await renderImage(file, { size, format: 'webp', quality: QUALITY.thumbnail.webp });
    webpMs.push(performance.now() - t);
    jpegBytes += jpeg.body.length;
    webpBytes += webp.body.length;
    if (i < DISTINCT) {
      // The reference: the same pipeline without lossy coding.
      const lossless = await sharp(await readFile(file), { failOn: 'error' })
        .autoOrient()
        .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .png()
        .toBuffer();
      const ref = await rgba(lossless, jpeg.width, jpeg.height);
      ssimWebp.push(ssim(ref, await rgba(webp.body, jpeg.width, jpeg.height)).mssim);
      ssimJpeg.push(ssim(ref, await rgba(jpeg.body, jpeg.width, jpeg.height)).mssim);
    }
  }

  // Pure encode times from the same decoded pixels, and AVIF's for the record.
  const raw = await sharp(files[0] as string)
    .resize(size, size, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const from = () => sharp(raw.data, { raw: raw.info });
  const timeIt = async (fn: () => Promise<Buffer>, n: number) => {
    await fn();
    const t = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return (performance.now() - t) / n;
  };
  const encJpeg = await timeIt(
    () => from().jpeg({ quality: QUALITY.thumbnail.jpeg, chromaSubsampling: '4:2:0' }).toBuffer(),
    20,
  );
  const encWebp = await timeIt(
    () => from().webp({ quality: QUALITY.thumbnail.webp, effort: WEBP_EFFORT }).toBuffer(),
    20,
  );
  const encAvif = await timeIt(() => from().avif({ quality: 50, effort: 2 }).toBuffer(), 3);

  const minSsim = Math.min(...ssimWebp);
  const rows: BenchRow[] = [
    {
      name: `page of ${PHOTOS} thumbnails, WebP (baseline: JPEG)`,
      value: Math.round(webpBytes / 1024),
      unit: 'KiB',
      baseline: Math.round(jpegBytes / 1024),
      target: '<= 0.7x',
      pass: webpBytes <= 0.7 * jpegBytes,
    },
    {
      name: 'SSIM of WebP vs lossless, lowest of the page',
      value: minSsim,
      unit: '',
      target: '>= 0.97',
      pass: minSsim >= 0.97,
    },
    { name: 'SSIM of JPEG vs lossless, lowest (for comparison)', value: Math.min(...ssimJpeg), unit: '' },
    {
      name: 'render a WebP thumbnail from the original (baseline: JPEG)',
      value: median(webpMs),
      unit: 'ms',
      baseline: median(jpegMs),
      target: '<= 1.5x',
      pass: median(webpMs) <= 1.5 * median(jpegMs),
    },
    { name: 'encode alone, WebP (baseline: JPEG)', value: encWebp, unit: 'ms', baseline: encJpeg },
    {
      name: 'encode alone, AVIF effort 2 (baseline: JPEG): not offered',
      value: encAvif,
      unit: 'ms',
      baseline: encJpeg,
    },
  ];
  printReport(`phone bytes (${PHOTOS} thumbnails of ${size} px from 24 MP originals)`, rows);
}
