/**
 * The one font the server draws text with (labels, the preview watermark, the demo photos):
 * Noto Sans JP (SIL OFL), shipped inside the npm package `@expo-google-fonts/noto-sans-jp`.
 * It covers Latin with accents, kana and kanji, so what is drawn looks the same on every
 * machine and in the Docker image, with no system font. Resolved here once, through Node's
 * module resolution, so it works from `src/` (tsx) and `dist/`.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The family name inside the TTFs (what Pango and Word are asked for). */
export const FONT_FAMILY = 'Noto Sans JP';

export const FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'),
} as const;
