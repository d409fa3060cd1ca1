import { describe, expect, it } from 'vitest';
import { cityKey, cleanLine, standardizeCity, standardizeSecondaryLine, standardizeState, standardizeStreetLine } from './street-standardizer.js';

/** USPS Publication 28 cases: input delivery line → standardised line (and unit designators). */
const STREET_CASES: [string, string, string[]?][] = [
  ['123 Main Street', '123 MAIN ST'],
  ['123 main st.', '123 MAIN ST'],
  ['500 Oak Avenue', '500 OAK AVE'],
  ['500 Oak Av', '500 OAK AVE'],
  ['77 Sunset Boulevard', '77 SUNSET BLVD'],
  ['77 Sunset Boul', '77 SUNSET BLVD'],
  ['12 Ocean Parkway', '12 OCEAN PKWY'],
  ['9 Elm Drive', '9 ELM DR'],
  ['4 Lake Shore Drive North', '4 LAKE SHORE DR N'],
  ['742 Evergreen Terrace', '742 EVERGREEN TER'],
  ['1 Cherry Lane', '1 CHERRY LN'],
  ['10 Market Square', '10 MARKET SQ'],
  ['88 Harbor Road', '88 HARBOR RD'],
  ['3 Cedar Court', '3 CEDAR CT'],
  ['15 Forest Highway', '15 FOREST HWY'],
  ['2 Mill Crossing', '2 MILL XING'],
  ['44 Quail Hollow', '44 QUAIL HOLW'],
  ['61 Spring Circle', '61 SPRING CIR'],
  ['8 Apple Expressway', '8 APPLE EXPY'],
  ['200 Vista Place', '200 VISTA PL'],
  ['123 North Main Street', '123 N MAIN ST'],
  ['123 Main Street Northeast', '123 MAIN ST NE'],
  ['1600 Pennsylvania Avenue Northwest', '1600 PENNSYLVANIA AVE NW'],
  ['50 South West Street', '50 S WEST ST'],
  ['500 N. E. Broadway', '500 NE BROADWAY'],
  ['123 North Street', '123 NORTH ST'], // the directional is the street name
  ['10 Park', '10 PARK'], // the suffix word is the street name
  ['100 Circle Drive', '100 CIRCLE DR'], // only the last suffix word is abbreviated
  ['1 Avenue of the Americas', '1 AVENUE OF THE AMERICAS'],
  ['350 Fifth Avenue Suite 5000', '350 FIFTH AVE STE 5000', ['STE']],
  ['123 Main St., Apt. 4B', '123 MAIN ST APT 4B', ['APT']],
  ['12 Elm St Apartment # 3C', '12 ELM ST APT 3C', ['APT']],
  ['456 Oak Avenue #12', '456 OAK AVE # 12', ['#']],
  ['1 Market Plaza 10th Floor', '1 MARKET PLZ FL 10', ['FL']],
  ['20 Park Avenue Building B', '20 PARK AVE BLDG B', ['BLDG']],
  ['77 Massachusetts Ave Bldg 2 Room 101', '77 MASSACHUSETTS AVE BLDG 2 RM 101', ['BLDG', 'RM']],
  ['9 Mountain View Rd Unit 5', '9 MOUNTAIN VIEW RD UNIT 5', ['UNIT']],
  ['123 Main St Rear', '123 MAIN ST REAR', ['REAR']],
  ['3 Old Mill Lane Lot 7', '3 OLD MILL LN LOT 7', ['LOT']],
  ['123 1/2 Main St', '123 1/2 MAIN ST'],
  ['123-45 67th Avenue', '123-45 67TH AVE'],
  ["12 O'Brien Boulevard", '12 OBRIEN BLVD'],
  ['  221B   Baker  Street ', '221B BAKER ST'],
  ['55 Front Street', '55 FRONT ST'],
  ['P.O. Box 123', 'PO BOX 123'],
  ['Post Office Box 77', 'PO BOX 77'],
  ['PO Box 9', 'PO BOX 9'],
  ['Rural Route 2 Box 10', 'RR 2 BOX 10'],
  ['Highway Contract 3 Box 4', 'HC 3 BOX 4'],
  ['1234 39.2 Road', '1234 39.2 RD'],
];

describe('standardizeStreetLine (Pub 28)', () => {
  it.each(STREET_CASES)('%j → %j', (input, expected, designators = []) => {
    const line = standardizeStreetLine(input);
    expect(line.text).toBe(expected);
    expect(line.designators).toEqual(designators);
  });

  it('has at least 30 cases', () => {
    expect(STREET_CASES.length).toBeGreaterThanOrEqual(30);
  });
});

describe('standardizeSecondaryLine', () => {
  it.each([
    ['Apartment 4b', 'APT 4B'],
    ['apt. 12', 'APT 12'],
    ['Suite 200', 'STE 200'],
    ['#5', '# 5'],
    ['2nd Floor', 'FL 2'],
    ['Floor 3', 'FL 3'],
    ['Bldg A Ste 3', 'BLDG A STE 3'],
    ['Penthouse', 'PH'],
    ['Unit 7-B', 'UNIT 7-B'],
    ['c/o John Smith', 'C/O JOHN SMITH'],
    ['Attn: Receiving', 'ATTN RECEIVING'],
  ])('%j → %j', (input, expected) => {
    expect(standardizeSecondaryLine(input).text).toBe(expected);
  });
});

describe('city, state and punctuation', () => {
  it('removes punctuation but keeps hyphens in ranges, fractions and decimals', () => {
    expect(cleanLine('a.b, c; d (e) "f"')).toBe('A B C D E F');
    expect(cleanLine('12-14 Main - St')).toBe('12-14 MAIN ST');
    expect(cleanLine('1/2')).toBe('1/2');
    expect(cleanLine('and/or')).toBe('AND OR');
  });

  it('upper-cases cities without punctuation', () => {
    expect(standardizeCity(' st. louis ')).toBe('ST LOUIS');
  });

  it('compares city names across Saint/St, Fort/Ft and spacing', () => {
    expect(cityKey('St. Louis')).toBe(cityKey('SAINT LOUIS'));
    expect(cityKey('Fort Worth')).toBe(cityKey('FT WORTH'));
    expect(cityKey('Mc Lean')).toBe(cityKey('McLean'));
    expect(cityKey('Boston')).not.toBe(cityKey('Brookline'));
  });

  it.each([
    ['ny', 'NY'],
    ['New York', 'NY'],
    ['california', 'CA'],
    ['District of Columbia', 'DC'],
    ['Puerto Rico', 'PR'],
    ['AE', 'AE'],
    ['Calif', null],
    ['XX', null],
  ])('state %j → %j', (input, expected) => {
    expect(standardizeState(input)).toBe(expected);
  });
});
