import { describe, expect, it } from 'vitest';
import { DEFAULT_IMPORT_STATUSES, platformStatus, toMinorUnits, toOunces, topicEnum, topicHeader, trackingCompany } from './units.js';

describe('Shopify units', () => {
  it('writes GraphQL and REST statuses in one vocabulary', () => {
    expect(platformStatus('PAID', 'UNFULFILLED')).toBe('paid:unfulfilled');
    expect(platformStatus('paid', null)).toBe('paid:unfulfilled');
    expect(platformStatus('PARTIALLY_PAID', 'PARTIALLY_FULFILLED')).toBe('partially_paid:partial');
    expect(platformStatus('partially_paid', 'partial')).toBe('partially_paid:partial');
    expect(platformStatus('PAID', 'FULFILLED')).toBe(platformStatus('paid', 'fulfilled'));
    // Statuses REST has no word for are unfulfilled orders there.
    expect(platformStatus('PAID', 'ON_HOLD')).toBe('paid:unfulfilled');
    expect(platformStatus(null, 'IN_PROGRESS')).toBe('none:unfulfilled');
  });

  it('imports paid or partially paid orders not yet wholly fulfilled by default', () => {
    expect(DEFAULT_IMPORT_STATUSES).toContain(platformStatus('PAID', 'UNFULFILLED'));
    expect(DEFAULT_IMPORT_STATUSES).toContain(platformStatus('partially_paid', 'partial'));
    expect(DEFAULT_IMPORT_STATUSES).not.toContain(platformStatus('PAID', 'FULFILLED'));
    expect(DEFAULT_IMPORT_STATUSES).not.toContain(platformStatus('AUTHORIZED', 'UNFULFILLED'));
    expect(DEFAULT_IMPORT_STATUSES).not.toContain(platformStatus('REFUNDED', 'UNFULFILLED'));
  });

  it('maps webhook topics both ways', () => {
    expect(topicHeader('ORDERS_CREATE')).toBe('orders/create');
    expect(topicHeader('APP_UNINSTALLED')).toBe('app/uninstalled');
    expect(topicEnum('orders/cancelled')).toBe('ORDERS_CANCELLED');
  });

  it('names carriers as Shopify knows them', () => {
    expect(['usps', 'ups', 'fedex', 'dhl_express'].map(trackingCompany)).toEqual(['USPS', 'UPS', 'FedEx', 'DHL Express']);
    expect(trackingCompany('acme_express')).toBeNull();
  });

  it('converts weights to ounces', () => {
    expect(toOunces(454, 'GRAMS')).toBe(16.014);
    expect(toOunces(1, 'KILOGRAMS')).toBe(35.274);
    expect(toOunces(2.5, 'POUNDS')).toBe(40);
    expect(toOunces('3', 'OUNCES')).toBe(3);
    expect(toOunces(1, 'STONES')).toBeNull();
    expect(toOunces(-1, 'GRAMS')).toBeNull();
  });

  it('reads decimal prices into minor units without float error', () => {
    expect(toMinorUnits('19.99', 'USD')).toBe(1999);
    expect(toMinorUnits('0.29', 'USD')).toBe(29);
    expect(toMinorUnits('1.1', 'USD')).toBe(110);
    expect(toMinorUnits('1500', 'JPY')).toBe(1500);
    expect(toMinorUnits('1.234', 'KWD')).toBe(1234);
    expect(toMinorUnits(12.5, 'EUR')).toBe(1250);
    expect(toMinorUnits('abc', 'USD')).toBeNull();
  });
});
