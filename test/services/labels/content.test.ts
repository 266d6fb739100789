import { describe, expect, test } from 'vitest';
import { escapeHtml as escapeMarkup } from '../../../src/lib/escape.js';
import { cleanText, labelContent, returnAddressLines, topLineText } from '../../../src/services/labels/content.js';
import { labelOrder } from '../../support/labels-fixtures.js';

describe('label content', () => {
  test('what a shipping label says', () => {
    const content = labelContent(labelOrder());
    expect(content).toEqual({
      orderNumber: 'AX25-0001',
      items: ['Photo #12 (4x6) x2', 'Photo #130 (5x7) x1'],
      name: 'Jane Q. Customer',
      addressLines: ['1600 Pennsylvania Ave NW', 'Washington, DC 20500-0003'],
      pickup: false,
    });
    expect(topLineText(content)).toBe('AX25-0001 · Photo #12 (4x6) x2, Photo #130 (5x7) x1');
  });

  test('a second street line is kept; tabs, runs of spaces and control characters are not', () => {
    const content = labelContent(
      labelOrder({
        customerName: ' Jane\t\tQ.\u0007 Customer ',
        shippingAddress: '1 Main St\nApt  4\r\n',
        city: ' Springfield ',
      }),
    );
    expect(content.name).toBe('Jane Q. Customer');
    expect(content.addressLines).toEqual(['1 Main St', 'Apt 4', 'Springfield, DC 20500-0003']);
  });

  test('a digital file is not in the parcel: the label lists the prints only', () => {
    const order = labelOrder();
    const [print] = order.items;
    if (!print) throw new Error('the fixture has lines');
    const content = labelContent({ ...order, items: [print, { ...print, photoNumber: '13', size: 'Digital' }] });
    expect(content.items).toEqual(['Photo #12 (4x6) x2']);
  });

  test('pickup orders and empty names', () => {
    const content = labelContent(
      labelOrder({ fulfillmentType: 'pickup', customerName: '  ', shippingAddress: '1 Main St' }),
    );
    expect(content.addressLines).toEqual(['PICKUP AT BOOTH']);
    expect(content.pickup).toBe(true);
    expect(content.name).toBe('(no name)');
  });

  test('return address lines', () => {
    expect(returnAddressLines('Convention Photos\n\n 123  Main St \r\nSpringfield, IL 62701\n')).toEqual([
      'Convention Photos',
      '123 Main St',
      'Springfield, IL 62701',
    ]);
    expect(returnAddressLines('')).toEqual([]);
    expect(cleanText('a\u0000b')).toBe('a b');
  });

  test('Pango markup escaping', () => {
    expect(escapeMarkup(`<b>Tom & "Jerry"</b> 'x'`)).toBe('&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt; &#39;x&#39;');
    // A lone surrogate (broken UTF-16) would make Pango refuse the whole text.
    expect(escapeMarkup('a\ud800b')).toBe('a\ufffdb');
    expect(escapeMarkup('😀')).toBe('😀');
  });
});
