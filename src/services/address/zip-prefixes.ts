/**
 * Which state each 3-digit ZIP prefix belongs to (USPS sectional centers), plus the few ZIP
 * codes that serve a town across a state line. Prefixes listed for no state are not in use;
 * unused prefixes inside a state's range stay with that state, so a newly opened one is never
 * refused. A TypeScript module so the build carries it into dist/ (and not under `data/`,
 * which .gitignore ignores).
 */
/** [first prefix, last prefix, state] — a prefix may appear under several states. */
export const ZIP_PREFIX_RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [4, 5, 'NY'], // Holtsville (IRS) and Pleasantville unique ZIPs
  [6, 7, 'PR'],
  [8, 8, 'VI'],
  [9, 9, 'PR'],
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 54, 'VT'],
  [55, 55, 'MA'], // Andover (IRS)
  [56, 59, 'VT'],
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  [90, 98, 'AE'], // Armed Forces Europe, Middle East, Africa, Canada
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 200, 'DC'],
  [201, 201, 'VA'], // Dulles
  [202, 205, 'DC'],
  [203, 203, 'MD'], // a few DC-prefixed federal sites in Maryland
  [206, 212, 'MD'],
  [214, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 339, 'FL'],
  [340, 340, 'AA'], // Armed Forces Americas
  [341, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'],
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'], // federal agencies' parcel returns
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 714, 'LA'],
  [716, 729, 'AR'],
  [730, 731, 'OK'],
  [733, 733, 'TX'], // Austin (IRS)
  [734, 749, 'OK'],
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'], // El Paso
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  [962, 966, 'AP'], // Armed Forces Pacific
  [967, 968, 'HI'],
  [969, 969, 'GU'],
  [969, 969, 'MP'],
  [969, 969, 'FM'],
  [969, 969, 'MH'],
  [969, 969, 'PW'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];

/** ZIP codes that also serve a state other than their prefix's (border towns, enclaves). */
export const ZIP_STATE_EXCEPTIONS: Readonly<Record<string, readonly string[]>> = {
  '06390': ['NY'], // Fishers Island, NY, served from New London, CT
  '20040': ['VA'],
  '20041': ['VA'], // Dulles International Airport
  '20042': ['VA'],
  '20799': ['DC'],
  '42223': ['TN'], // Fort Campbell straddles KY/TN
  '59221': ['ND'], // Fairview, MT serves McKenzie County, ND
  '68119': ['IA'], // Carter Lake, IA
  '68120': ['IA'],
  '71233': ['MS'],
  '73949': ['TX'], // Texhoma, OK/TX
  '75502': ['AR'], // Texarkana, AR
  '83414': ['WY'], // Alta, WY, served from Driggs, ID
  '96799': ['AS'], // American Samoa (the only ZIP code it has)
  '97635': ['CA'], // New Pine Creek, OR/CA
};
