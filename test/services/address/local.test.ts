import { describe, expect, test } from 'vitest';
import {
  checkLocally,
  createLocalVerifier,
  createOffVerifier,
  standardise,
} from '../../../src/services/address/local.js';
import { POSTAL_STATE_CODES, statesForZip } from '../../../src/services/address/states.js';
import type { PostalAddress } from '../../../src/services/address/types.js';
import { ZIP_PREFIX_RANGES, ZIP_STATE_EXCEPTIONS } from '../../../src/services/address/zip-prefixes.js';

const WHITE_HOUSE: PostalAddress = { line1: '1600 Pennsylvania Ave NW', city: 'Washington', state: 'DC', zip: '20500' };
const addr = (over: Partial<PostalAddress>): PostalAddress => ({ ...WHITE_HOUSE, ...over });

describe('local address check: refusals', () => {
  test.each([
    ['an unknown state code', addr({ state: 'ZZ' }), 'state'],
    ['a state spelt out', addr({ state: 'California', zip: '94103' }), 'state'],
    ['CA with a New York prefix ZIP (12345)', addr({ state: 'CA', zip: '12345' }), 'zip'],
    ['a ZIP of letters', addr({ zip: 'ABCDE' }), 'zip'],
    ['a 4-digit ZIP', addr({ zip: '2050' }), 'zip'],
    ['a ZIP+3', addr({ zip: '20500-123' }), 'zip'],
    ['a ZIP nobody uses (000..)', addr({ state: 'NY', zip: '00012' }), 'zip'],
    ['a street without a number', addr({ line1: 'Pennsylvania Avenue' }), 'line1'],
    ['an empty street', addr({ line1: '   ' }), 'line1'],
    ['an empty city', addr({ city: '' }), 'city'],
    [
      'a military state without APO/FPO/DPO',
      { line1: 'Unit 2050 Box 4190', city: 'Berlin', state: 'AE', zip: '09001' },
      'city',
    ],
    ['AS with a Hawaii ZIP', { line1: '1 Main Rd', city: 'Pago Pago', state: 'AS', zip: '96701' }, 'zip'],
  ])('%s is invalid, naming the field', async (_name, address, field) => {
    const check = await createLocalVerifier().verify(address);
    expect(check.status).toBe('invalid');
    if (check.status !== 'invalid') return;
    expect(check.field).toBe(field);
    expect(check.reason.length).toBeGreaterThan(5);
  });
});

describe('local address check: accepted addresses, standardised', () => {
  test.each<[string, PostalAddress, PostalAddress]>([
    ['DC', WHITE_HOUSE, WHITE_HOUSE],
    ['ZIP+4', addr({ zip: '20500-0003' }), addr({ zip: '20500-0003' })],
    ['ZIP+4 typed as 9 digits', addr({ zip: '205000003' }), addr({ zip: '20500-0003' })],
    ['ZIP+4 with a space', addr({ zip: ' 20500 0003 ' }), addr({ zip: '20500-0003' })],
    [
      'messy spacing and a lower-case state',
      { line1: '  350   Fifth  Ave ', city: ' New   York ', state: ' ny', zip: '10118' },
      { line1: '350 Fifth Ave', city: 'New York', state: 'NY', zip: '10118' },
    ],
    [
      'Puerto Rico',
      { line1: 'Urb Las Gladiolas 150 Calle A', city: 'San Juan', state: 'PR', zip: '00926' },
      { line1: 'Urb Las Gladiolas 150 Calle A', city: 'San Juan', state: 'PR', zip: '00926' },
    ],
    [
      'a PO Box',
      { line1: 'P.O. Box 123', city: 'Springfield', state: 'IL', zip: '62701' },
      { line1: 'PO Box 123', city: 'Springfield', state: 'IL', zip: '62701' },
    ],
    [
      'an APO address',
      { line1: 'Unit 2050 Box 4190', city: 'apo', state: 'ae', zip: '09001' },
      { line1: 'Unit 2050 Box 4190', city: 'apo', state: 'AE', zip: '09001' },
    ],
    [
      'Guam',
      { line1: '123 Marine Corps Dr', city: 'Tamuning', state: 'GU', zip: '96913' },
      { line1: '123 Marine Corps Dr', city: 'Tamuning', state: 'GU', zip: '96913' },
    ],
    [
      'American Samoa',
      { line1: '1 Main Rd', city: 'Pago Pago', state: 'AS', zip: '96799' },
      { line1: '1 Main Rd', city: 'Pago Pago', state: 'AS', zip: '96799' },
    ],
    [
      'the Virgin Islands',
      { line1: '5 Main St', city: 'St Thomas', state: 'VI', zip: '00802' },
      { line1: '5 Main St', city: 'St Thomas', state: 'VI', zip: '00802' },
    ],
    [
      'Fishers Island, NY on a Connecticut prefix',
      { line1: '1 Equestrian Ave', city: 'Fishers Island', state: 'NY', zip: '06390' },
      { line1: '1 Equestrian Ave', city: 'Fishers Island', state: 'NY', zip: '06390' },
    ],
    [
      'El Paso, TX (885)',
      { line1: '500 W Overland Ave', city: 'El Paso', state: 'TX', zip: '88510' },
      { line1: '500 W Overland Ave', city: 'El Paso', state: 'TX', zip: '88510' },
    ],
    [
      'General Delivery',
      { line1: 'general delivery', city: 'Springfield', state: 'IL', zip: '62701' },
      { line1: 'general delivery', city: 'Springfield', state: 'IL', zip: '62701' },
    ],
  ])('%s', async (_name, input, expected) => {
    expect(await createLocalVerifier().verify(input)).toEqual({ status: 'valid', address: expected });
  });

  test('one address in every state, DC and territory code', () => {
    // A real ZIP code per code: the table must put each one in its own state.
    const samples: Record<string, string> = {
      AL: '35203',
      AK: '99501',
      AZ: '85001',
      AR: '72201',
      CA: '94103',
      CO: '80202',
      CT: '06103',
      DE: '19901',
      FL: '33101',
      GA: '30303',
      HI: '96813',
      ID: '83702',
      IL: '60601',
      IN: '46204',
      IA: '50309',
      KS: '66603',
      KY: '40202',
      LA: '70112',
      ME: '04101',
      MD: '21201',
      MA: '02108',
      MI: '48226',
      MN: '55401',
      MS: '39201',
      MO: '63101',
      MT: '59601',
      NE: '68102',
      NV: '89101',
      NH: '03301',
      NJ: '07102',
      NM: '87501',
      NY: '10001',
      NC: '27601',
      ND: '58501',
      OH: '43215',
      OK: '73102',
      OR: '97201',
      PA: '19103',
      RI: '02903',
      SC: '29201',
      SD: '57501',
      TN: '37203',
      TX: '78701',
      UT: '84101',
      VT: '05602',
      VA: '23219',
      WA: '98101',
      WV: '25301',
      WI: '53703',
      WY: '82001',
      DC: '20001',
      PR: '00901',
      GU: '96910',
      VI: '00802',
      AS: '96799',
      MP: '96950',
      FM: '96941',
      MH: '96960',
      PW: '96940',
      AA: '34001',
      AE: '09001',
      AP: '96201',
    };
    expect(new Set(Object.keys(samples))).toEqual(POSTAL_STATE_CODES);
    for (const [state, zip] of Object.entries(samples)) {
      const city = ['AA', 'AE', 'AP'].includes(state) ? 'APO' : 'Capital';
      expect(checkLocally({ line1: '1 Main St', city, state, zip }), `${state} ${zip}`).toMatchObject({
        status: 'valid',
      });
    }
  });
});

describe('the bundled ZIP prefix table', () => {
  test('only the known multi-state prefixes are shared', () => {
    const shared: string[] = [];
    for (let p = 0; p < 1000; p++) {
      const zip = `${String(p).padStart(3, '0')}00`;
      if (statesForZip(zip).length > 1) shared.push(zip.slice(0, 3));
    }
    expect(shared).toEqual(['203', '969']);
  });

  test('every state of the table and of the exceptions is a postal code', () => {
    for (const [, , state] of ZIP_PREFIX_RANGES) expect(POSTAL_STATE_CODES.has(state)).toBe(true);
    for (const [zip, states] of Object.entries(ZIP_STATE_EXCEPTIONS)) {
      expect(zip).toMatch(/^\d{5}$/);
      for (const s of states) expect(POSTAL_STATE_CODES.has(s)).toBe(true);
    }
  });

  test('neighbouring states are told apart', () => {
    expect(statesForZip('05501')).toEqual(['MA']); // Andover IRS inside Vermont's range
    expect(statesForZip('73301')).toEqual(['TX']); // Austin IRS inside Oklahoma's range
    expect(statesForZip('34001')).toEqual(['AA']);
    expect(statesForZip('20101')).toEqual(['VA']);
    expect(statesForZip('39901')).toEqual(['GA']);
    expect(statesForZip('56901')).toEqual(['DC']);
    expect(statesForZip('69501')).toEqual([]);
  });
});

describe('standardise and the off verifier', () => {
  test('standardise trims, collapses, upper-cases the state and normalises the ZIP', () => {
    expect(standardise({ line1: ' po box  7 ', city: 'Dover ', state: 'de ', zip: '19901 1234' })).toEqual({
      line1: 'PO Box 7',
      city: 'Dover',
      state: 'DE',
      zip: '19901-1234',
    });
  });

  test('off never checks anything', async () => {
    const check = await createOffVerifier().verify(addr({ state: 'ZZ' }));
    expect(check).toEqual({ status: 'unverified', reason: 'address verification is off' });
  });

  test('the local check never throws, even on a malformed input', async () => {
    const check = await createLocalVerifier().verify({ line1: null } as unknown as PostalAddress);
    expect(check.status).toBe('unverified');
  });
});
