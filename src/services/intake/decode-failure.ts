/**
 * What the admin's intake panel (and the log) says about a new photo the image library could
 * not decode: one line in words. libvips' own message repeats a "bad seek to <offset>" line
 * per attempt and prefixes each with the file's path; the panel names the file already.
 */

/** An iPhone's HEIC is HEVC-coded; sharp's prebuilt libvips decodes HEIF only when AV1-coded (AVIF). */
const HEVC = /compression format has not been built in: HEVC/i;

export function decodeFailure(message: string, file: string): string {
  if (HEVC.test(message)) {
    return 'a HEIC photo coded with HEVC (as iPhones save them), which this server cannot decode: export it as JPEG, or set the phone’s camera to “Most Compatible”';
  }
  const lines = message
    .split('\n')
    .map((line) => line.split(`${file}: `).join('').trim())
    .filter((line) => line !== '' && !/^bad seek to \d+$/.test(line));
  return (lines.at(-1) ?? message).slice(0, 300);
}
