import type { Static } from '@sinclair/typebox';
import type { CustomsDeclaration } from '../../carriers/types.js';
import { declaredValue } from './customs.rules.js';
import type { OrderCustomsSchema, ShipmentCustoms } from './customs.schemas.js';

export type OrderCustoms = Static<typeof OrderCustomsSchema>;

/** A kept declaration on the wire: every optional field present (null when absent). */
export function toOrderCustoms(d: CustomsDeclaration): OrderCustoms {
  return {
    contents_type: d.contents_type,
    contents_explanation: d.contents_explanation ?? null,
    non_delivery: d.non_delivery,
    incoterm: d.incoterm,
    eel_pfc: d.eel_pfc ?? null,
    aes_itn: d.aes_itn ?? null,
    signer: d.signer ?? null,
    importer: d.importer
      ? { tax_id: d.importer.tax_id ?? null, eori: d.importer.eori ?? null, ioss: d.importer.ioss ?? null, vat: d.importer.vat ?? null }
      : null,
    items: d.items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unit_value: item.unit_value,
      weight_oz: item.weight_oz,
      hs_tariff_number: item.hs_tariff_number ?? null,
      origin_country: item.origin_country,
      sku: item.sku ?? null,
    })),
  };
}

/** A shipment's declaration on the wire, with `derived` and its total `declared_value`. */
export function toShipmentCustoms(d: CustomsDeclaration): ShipmentCustoms {
  return { ...toOrderCustoms(d), derived: d.derived ?? false, declared_value: declaredValue(d) };
}
