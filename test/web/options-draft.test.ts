import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ShipmentOptionsInputSchema } from '../../src/modules/shipment-options/options.schemas.js';
import { bodyOf, draftOf } from '../../web/src/pages/options-draft.js';

const validate = addFormats(new Ajv({ allErrors: true })).compile(JSON.parse(JSON.stringify(ShipmentOptionsInputSchema)));

describe("the buy-label form's options", () => {
  it('an empty form sends the defaults, valid against the API schema', () => {
    const body = bodyOf(draftOf(undefined));
    expect(body).toEqual({ signature: 'none', saturday_delivery: false, references: [] });
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it("round-trips an order's options and converts dollars and ounces", () => {
    const order = {
      signature: 'adult',
      saturday_delivery: true,
      insurance: { amount: { amount: 25000, currency: 'USD' } },
      dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 40 },
      references: ['PO-1'],
      delivery_instructions: 'Back door',
    };
    const draft = draftOf(order);
    expect(draft.insurance_usd).toBe('250.00');
    expect(bodyOf(draft)).toEqual(order);
    expect(validate(bodyOf(draft))).toBe(true);
    expect(bodyOf({ ...draft, insurance_usd: '12.345', reference2: '  INV-2 ' })).toMatchObject({
      insurance: { amount: { amount: 1235, currency: 'USD' } },
      references: ['PO-1', 'INV-2'],
    });
  });
});
