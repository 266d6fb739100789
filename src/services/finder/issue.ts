/**
 * Issuing photo codes (docs/contract.md, "Finding one's photos, and intake"): fresh random
 * codes recorded in the store, each with the URL its QR holds and the QR itself as SVG.
 * qrcode is loaded on the first QR drawn, not at start-up (about 0.1 s of CPU).
 */
import { newPhotoCode, photoCodeUrl } from '../../domain/photo-code.js';
import type { PhotoCodeRecord, PhotoCodesPort } from '../store/ports/photo-codes.js';

export type IssuedCode = { code: string; url: string };

/** Error correction M (15 %): read through screen glare and a tilted phone, still a small QR. */
const QR_OPTIONS = { errorCorrectionLevel: 'M' } as const;

const qrcode = async () => (await import('qrcode')).default;

/**
 * `count` new codes, recorded in one transaction. A code drawn twice (a 1 in 2^40 chance
 * per pair) is simply drawn again.
 */
export async function issueCodes(
  port: Pick<PhotoCodesPort, 'issue'>,
  publicBaseUrl: string,
  count: number,
  via: PhotoCodeRecord['issuedVia'],
): Promise<IssuedCode[]> {
  const out: string[] = [];
  for (let round = 0; out.length < count; round++) {
    if (round > 5) throw new Error('could not draw unused photo codes');
    const createdAt = new Date().toISOString();
    const drawn = new Set<string>();
    while (drawn.size < count - out.length) drawn.add(newPhotoCode());
    out.push(...(await port.issue([...drawn].map((code) => ({ code, issuedVia: via, createdAt })))));
  }
  return out.map((code) => ({ code, url: photoCodeUrl(publicBaseUrl, code) }));
}

/** The QR of `url` as a standalone SVG (black on white, a quiet zone of 4 modules). */
export async function qrSvg(url: string): Promise<string> {
  return (await qrcode()).toString(url, { ...QR_OPTIONS, type: 'svg', margin: 4 });
}

/** The QR's modules (true: dark), row by row, for drawing it elsewhere (the card sheet). */
export async function qrModules(url: string): Promise<{ size: number; dark(row: number, col: number): boolean }> {
  const { modules } = (await qrcode()).create(url, QR_OPTIONS);
  return { size: modules.size, dark: (row, col) => Boolean(modules.get(row, col)) };
}
