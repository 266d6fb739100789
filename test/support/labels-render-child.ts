/**
 * Run as a child process by test/services/labels/fonts.test.ts, with FONTCONFIG_FILE
 * pointing at a fontconfig setup that has no fonts at all: renders the label of
 * `labelOrder(JSON.parse(argv[3]))` to the PNG file argv[2].
 */
import { writeFile } from 'node:fs/promises';
import { createLabelRenderer } from '../../src/services/labels/renderer.js';
import { labelOrder, RETURN_ADDRESS } from './labels-fixtures.js';

const [, , out, over] = process.argv;
if (!out || !over) throw new Error('usage: labels-render-child <out.png> <order overrides as JSON>');
const file = await createLabelRenderer({ returnAddress: RETURN_ADDRESS }).png(labelOrder(JSON.parse(over)));
await writeFile(out, file.content);
