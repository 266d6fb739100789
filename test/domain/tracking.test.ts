import { expect, test } from 'vitest';
import { trackingLink } from '../../src/domain/tracking.js';

test.each([
  ['1Z999AA10123456784', 'UPS', 'https://www.ups.com/track?tracknum=1Z999AA10123456784'],
  ['1z 999 aa1 01 2345 6784', 'UPS', 'https://www.ups.com/track?tracknum=1Z999AA10123456784'],
  [
    '9400 1000 0000 0000 0000 00',
    'USPS',
    'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
  ],
  ['9205590164917312751089', 'USPS', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9205590164917312751089'],
  ['7016-0910-0000-1234-5678', 'USPS', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=70160910000012345678'],
  ['EC123456789US', 'USPS', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=EC123456789US'],
  ['123456789012', 'FedEx', 'https://www.fedex.com/fedextrack/?trknbr=123456789012'],
  ['012345678901234', 'FedEx', 'https://www.fedex.com/fedextrack/?trknbr=012345678901234'],
  ['9612019059878612345678', 'FedEx', 'https://www.fedex.com/fedextrack/?trknbr=9612019059878612345678'],
])('%s is %s', (number, carrier, url) => {
  expect(trackingLink(number)).toEqual({ carrier, url });
});

test.each(['', 'ABC', '1Z12', '12345', 'TRACK-ME-PLEASE', '96120190598786'])('%j has no carrier', (number) => {
  expect(trackingLink(number)).toBeNull();
});
