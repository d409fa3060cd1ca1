import { describe, expect, it } from 'vitest';
import { carrier as upsCarrier } from '../../carriers/ups/index.js';
import { carrier as uspsCarrier } from '../../carriers/usps/index.js';
import { AppError } from '../../platform/errors.js';
import { assertParcelsTaken, DEFAULT_OPTIONS, optionGaps } from './options.rules.js';

const refusal = (fn: () => void): AppError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe("parcels against a service's max_parcels", () => {
  it('a service takes up to its max_parcels pieces', () => {
    const ground = upsCarrier.services.find((s) => s.code === 'ups_ground')!;
    expect(optionGaps(ground.name, ground.options, DEFAULT_OPTIONS, ground.options!.max_parcels)).toEqual([]);
    expect(optionGaps(ground.name, ground.options, DEFAULT_OPTIONS, ground.options!.max_parcels + 1).map((g) => g.option)).toEqual(['parcels']);
  });

  it('USPS (one parcel per shipment) refuses two with 422 option_unavailable naming parcels', () => {
    const err = refusal(() => assertParcelsTaken(uspsCarrier, 'usps_ground_advantage', 2));
    expect(err.code).toBe('option_unavailable');
    expect(err.details).toEqual([expect.objectContaining({ field: 'parcels', option: 'parcels' })]);
  });

  it('a service with multi-piece takes several pieces (through either driver: the table decides)', () => {
    expect(() => assertParcelsTaken(upsCarrier, 'ups_ground', 2)).not.toThrow();
    expect(() => assertParcelsTaken(upsCarrier, 'ups_ground', 1)).not.toThrow();
    const err = refusal(() => assertParcelsTaken(upsCarrier, 'ups_ground', 21));
    expect(err.details).toEqual([expect.objectContaining({ field: 'parcels', option: 'parcels' })]);
  });
});
