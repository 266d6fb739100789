/**
 * What the admin's intake panel (and the log) says about a new photo the image library could
 * not decode: one line in words.
 *
 * An iPhone's HEIC is coded with HEVC, which sharp's prebuilt libvips cannot decode (it reads
 * HEIF only when AV1-coded, as AVIF). That is told from the file's header, not from libvips'
 * message: libvips keeps its error text in a buffer shared by the renders running at the same
 * time, so under load the message can be another file's, or empty ("Unknown error").
 * Otherwise libvips' last line is the reason, without the "bad seek to <offset>" line it
 * repeats per attempt and without the file's path (the panel names the file already).
 */
import { readHeader } from '../../adapters/sharp.js';

export const HEVC_HEIC =
  'a HEIC photo coded with HEVC (as iPhones save them), which this server cannot decode: export it as JPEG, or set the phone’s camera to “Most Compatible”';

export async function decodeFailure(message: string, file: string): Promise<string> {
  const meta = await readHeader(file).catch(() => undefined);
  if (meta?.format === 'heif' && meta.compression === 'hevc') return HEVC_HEIC;
  return inWords(message, file);
}

/** libvips' message as one line, without its retry lines and the file's path. */
export function inWords(message: string, file: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.split(`${file}: `).join('').trim())
    .filter((line) => line !== '' && !/^bad seek to \d+$/.test(line));
  const last = lines.at(-1);
  if (last === undefined || last === 'Unknown error') return 'the image library could not decode it';
  return last.slice(0, 300);
}
