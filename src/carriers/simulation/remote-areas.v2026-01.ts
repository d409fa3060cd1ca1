/**
 * Delivery-area surcharge ZIP3 ranges (simulated, version 2026-01). Real carriers publish
 * ZIP5 lists; the simulation keeps whole ZIP3 areas: Alaska, Hawaii, Puerto Rico / USVI and a
 * few sparsely served rural areas. Inclusive ranges, compared as 3-digit strings.
 */
export const remoteZip3Ranges: readonly (readonly [string, string])[] = [
  ['006', '009'], // Puerto Rico, US Virgin Islands
  ['049', '049'], // northern Maine (Aroostook)
  ['059', '059'], // northern Vermont
  ['596', '596'], // Montana (Helena area, rural routes)
  ['693', '693'], // Nebraska Sandhills
  ['823', '823'], // Wyoming (Rawlins)
  ['883', '883'], // New Mexico (Tularosa basin)
  ['898', '898'], // Nevada (Elko)
  ['967', '968'], // Hawaii
  ['995', '999'], // Alaska
];
