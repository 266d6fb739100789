import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  charLength,
  hasLineBreak,
  isWellFormed,
  phoneProblem,
  stripControls,
} from '../../../src/services/orders/text.js';

describe('customer text', () => {
  test('every kind of line break is found', () => {
    for (const br of ['\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029']) expect(hasLineBreak(`a${br}b`)).toBe(true);
    expect(hasLineBreak('Ada Lovelace\t(née Byron)')).toBe(false);
  });

  test('control and bidi-override characters go, a tab becomes a space, the rest stays as given', () => {
    expect(stripControls('A\u0000d\u001ba\u007f \u0090L\u202eovelace\u2066')).toBe('Ada Lovelace');
    expect(stripControls('Ada\tLovelace')).toBe('Ada Lovelace');
    for (const kept of ['=SUM(A1:A9)', '+1 555', '@admin', 'Zoë Ñúñez', '山田 太郎', '👩‍💻 Ada', "O'Brien & <Sons>"]) {
      expect(stripControls(kept)).toBe(kept);
    }
  });

  test('property: the result never holds a stripped character, and clean text is unchanged', () => {
    const isStripped = (c: number) =>
      c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    const holdsStripped = (s: string) => [...s].some((ch) => isStripped(ch.codePointAt(0) as number));
    // Any code point, control characters well represented (fc's 'binary' unit is slow to build).
    const char = fc.oneof(
      fc.integer({ min: 0, max: 0x2070 }),
      fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
    );
    const text = fc.array(char, { maxLength: 40 }).map((cs) => String.fromCodePoint(...cs));
    fc.assert(
      fc.property(text, (s) => {
        const out = stripControls(s);
        return !holdsStripped(out) && stripControls(out) === out;
      }),
    );
  });

  test('lone surrogates are found; pairs are fine', () => {
    for (const bad of ['\ud800', 'a\udfff', '\udc00\ud800', 'x\ud83d']) expect(isWellFormed(bad), bad).toBe(false);
    for (const ok of ['', 'Ada', '😀', '👩🏽‍💻', '山田']) expect(isWellFormed(ok), ok).toBe(true);
  });

  test('length counts characters as people do', () => {
    expect(charLength('👩🏽')).toBe(2); // a code point and its skin tone
    expect(charLength('山田')).toBe(2);
    expect(charLength('😀'.repeat(100))).toBe(100);
  });

  test('phone numbers: 7–20 digits with + ( ) - . and spaces', () => {
    for (const ok of ['5550100', '+1 (555) 010-0000', '+44 20 7946 0958', '555.010.0000', '1'.repeat(20)]) {
      expect(phoneProblem(ok), ok).toBeUndefined();
    }
    expect(phoneProblem('555010')).toMatch(/7-20 digits/);
    expect(phoneProblem('1'.repeat(21))).toMatch(/7-20 digits/);
    for (const bad of ['555-0100 ext 12', '+1 555 010 0000 #', '=1+2+3+4+5+6+7', '555/010/0000']) {
      expect(phoneProblem(bad), bad).toMatch(/only digits/);
    }
  });
});
