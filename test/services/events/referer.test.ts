import { expect, test } from 'vitest';
import { eventCodeFromReferer } from '../../../src/services/events/referer.js';

test.each([
  ['https://gallery.example/event/AX2025/Day%201/Morning', 'AX2025'],
  ['https://gallery.example/event/Anime%20Expo', 'Anime Expo'],
  ['http://localhost:3000/shop/checkout?eventSlug=AX25', 'AX25'],
  ['http://localhost:3000/?event=AX25', 'AX25'],
  ['https://gallery.example/', undefined],
  ['not a url', undefined],
  [undefined, undefined],
  ['https://gallery.example/event/%E0%A4%A', undefined],
])('%s → %s', (referer, expected) => {
  expect(eventCodeFromReferer(referer)).toBe(expected);
});
