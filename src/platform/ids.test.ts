import { describe, expect, it } from 'vitest';
import { TypeID, typeid } from 'typeid-js';
import { idPrefixes, isId, newId } from './ids.js';

describe('newId', () => {
  it('mints TypeIDs that typeid-js parses into UUIDv7s carrying the timestamp', () => {
    const at = Date.UTC(2026, 10, 23, 12, 34, 56, 789);
    const id = newId('order', at + 1_000_000); // a fresh millisecond, later than any id minted so far
    const parsed = TypeID.fromString(id);
    expect(parsed.getType()).toBe('ord');
    const uuid = parsed.toUUID();
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(uuid.replaceAll('-', '').slice(0, 12), 16)).toBe(at + 1_000_000);
  });

  it('encodes the same UUID the way typeid-js does', () => {
    for (let i = 0; i < 200; i++) {
      const id = newId('shipment');
      const suffix = id.slice('shp_'.length);
      expect(TypeID.fromUUID('shp', TypeID.fromString(id).toUUID()).getSuffix()).toBe(suffix);
    }
  });

  it('sorts in minting order, within a millisecond too, and never repeats', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('rate'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('stays ordered when the clock steps back', () => {
    const later = newId('event', Date.now() + 5_000);
    const earlierClock = newId('event', Date.now());
    expect(earlierClock > later).toBe(true);
  });

  it('interleaves with ids minted by typeid-js in time order', () => {
    const ours = newId('batch', Date.now() + 10_000);
    const theirs = typeid('bat').toString();
    expect(ours > theirs).toBe(true);
  });
});

describe('isId', () => {
  it('accepts every kind from the prefix table and refuses the rest', () => {
    for (const kind of Object.keys(idPrefixes) as (keyof typeof idPrefixes)[]) {
      expect(isId(kind, newId(kind))).toBe(true);
    }
    expect(isId('order', newId('shipment'))).toBe(false);
    expect(isId('order', 'ord_8zzzzzzzzzzzzzzzzzzzzzzzzz')).toBe(false); // over 128 bits
    expect(isId('order', 'ord_01h455vb4pex5vsknk084sn02u')).toBe(false); // 'u' is not in the alphabet
    expect(isId('order', 'ord_01h455vb4pex5vsknk084sn02')).toBe(false);
  });
});
