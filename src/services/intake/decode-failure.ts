/**
 * One line in words for a new photo the image library could not decode (intake panel, log).
 * An iPhone's HEVC-coded HEIC, which sharp's prebuilt libvips can't decode, is told from the
 * file's header, not libvips' message: libvips shares its error buffer between concurrent
 * renders, so under load the message can be another file's. Otherwise libvips' last line,
 * without its per-attempt "bad seek" lines and the file's path.
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
