import { describe, expect, it } from 'vitest';
import { dhlCheckDigit, dhlTrackingNumber, isValidDhlTrackingNumber } from './dhl_express/index.js';
import { fedexCheckDigit, fedexTrackingNumber, isValidFedexTrackingNumber } from './fedex/index.js';
import { isValidUpsTrackingNumber, upsCheckDigit, upsTrackingNumber } from './ups/index.js';
import { isValidUspsTrackingNumber, uspsCheckDigit, uspsTrackingNumber } from './usps/index.js';

/**
 * Publicly known valid numbers (UPS's documented sample 1Z999AA10123456784 and numbers from
 * the open tracking_number_data test set) pin the check-digit algorithms to the real ones.
 */
describe('UPS 1Z numbers (mod 10)', () => {
  it.each(['1Z999AA10123456784', '1Z5R89390357567127', '1Z879E930346834440', '1Z410E7W0392751591', '1Z8V92A70367203024'])(
    'accepts the public example %s',
    (n) => expect(isValidUpsTrackingNumber(n)).toBe(true),
  );

  it.each(['1Z5R89390357567128', '2Z5R89390357567127', '1A5R89390357567127', '1Z1111111111111111', '1Z999AA1012345678', ''])('rejects %s', (n) =>
    expect(isValidUpsTrackingNumber(n)).toBe(false),
  );

  it('computes the check digit of the documented sample', () => {
    expect(upsCheckDigit('999AA1012345678')).toBe(4);
  });

  it('generates valid, deterministic numbers with the service indicator', () => {
    const a = upsTrackingNumber('shp_1', 'ups_next_day_air');
    expect(a).toMatch(/^1Z[0-9A-Z]{6}01\d{8}$/);
    expect(isValidUpsTrackingNumber(a)).toBe(true);
    expect(upsTrackingNumber('shp_1', 'ups_next_day_air')).toBe(a);
    expect(upsTrackingNumber('shp_2', 'ups_next_day_air')).not.toBe(a);
    expect(upsTrackingNumber('shp_1', 'ups_ground').slice(8, 10)).toBe('03');
  });
});

describe('USPS IMpb numbers (22 digits, 92–95, mod 10)', () => {
  it.each(['9400111201080805483016', '9361289878700317633795', '9505511069605048600624', '9405803699300124287899', '9400 1112 0108 0805 4830 16'])(
    'accepts the public example %s',
    (n) => expect(isValidUspsTrackingNumber(n)).toBe(true),
  );

  it.each([
    '9400111201080805483017', // wrong check digit
    '9101123456789000000013', // valid check digit, but 91 is not an IMpb 92–95 prefix
    '940011120108080548301', // 21 digits
    '9200000000000000000000',
  ])('rejects %s', (n) => expect(isValidUspsTrackingNumber(n)).toBe(false));

  it('computes the check digit with weights 3,1 from the right', () => {
    expect(uspsCheckDigit('940011120108080548301')).toBe(6);
  });

  it('generates valid numbers; the service picks the 92–95 prefix', () => {
    for (const service of ['usps_ground_advantage', 'usps_priority_mail', 'usps_priority_mail_express', 'usps_first_class_international']) {
      for (let i = 0; i < 50; i++) {
        const n = uspsTrackingNumber(`shp_${i}`, service);
        expect(n).toMatch(/^9[2-5]\d{20}$/);
        expect(isValidUspsTrackingNumber(n)).toBe(true);
      }
    }
  });
});

describe('FedEx 12-digit numbers (mod 11)', () => {
  it.each(['986578788855', '477179081230', '799531274483', '790535312317', '974367662710'])('accepts the public example %s', (n) =>
    expect(isValidFedexTrackingNumber(n)).toBe(true),
  );

  it.each(['996578788855', '98657878885', '9865787888555', 'ABCDEFGHIJKL'])('rejects %s', (n) => expect(isValidFedexTrackingNumber(n)).toBe(false));

  it('maps a remainder of 10 to check digit 0', () => {
    // 3·1 + 1·0 + 7·0 + … = 3; then find a serial whose weighted sum ≡ 10 (mod 11):
    // 3·1 + 1·0 + 7·1 = 10 → "10100000000"
    expect(fedexCheckDigit('10100000000')).toBe(0);
    expect(fedexCheckDigit('10000000000')).toBe(3);
  });

  it('generates valid numbers', () => {
    for (let i = 0; i < 200; i++) expect(isValidFedexTrackingNumber(fedexTrackingNumber(`shp_${i}`, 'fedex_2day'))).toBe(true);
  });
});

describe('DHL Express 10-digit numbers (mod 7)', () => {
  it.each(['3318810025', '8487135506', '1099255990', '3821724944', '3318810036', '3318810014'])('accepts the public example %s', (n) =>
    expect(isValidDhlTrackingNumber(n)).toBe(true),
  );

  it.each(['3318810010', '3318810034', '3318810011', '331881002'])('rejects %s', (n) => expect(isValidDhlTrackingNumber(n)).toBe(false));

  it('check digit is the serial mod 7', () => {
    expect(dhlCheckDigit('331881002')).toBe(331881002 % 7);
    expect(dhlCheckDigit('000000007')).toBe(0);
  });

  it('generates valid numbers', () => {
    for (let i = 0; i < 200; i++) expect(isValidDhlTrackingNumber(dhlTrackingNumber(`shp_${i}`, 'dhl_express_worldwide'))).toBe(true);
  });
});
