import { describe, expect, it } from 'vitest';
import { ukCustoms } from '../../../../test/helpers/driver-customs.js';
import { customsValueAddedServices, parseShipmentDocuments, receiverRegistrationNumbers, snakeCase } from './customs.js';

describe('DHL Express customs helpers', () => {
  it("snake_cases DHL's document type codes", () => {
    expect(snakeCase('customsDeclaration')).toBe('customs_declaration');
    expect(snakeCase('waybillDoc')).toBe('waybill_doc');
    expect(snakeCase('QR-code')).toBe('qr_code');
  });

  it('documents: labels skipped, known types ours, empty content dropped', () => {
    const b64 = Buffer.from('%PDF').toString('base64');
    const docs = parseShipmentDocuments([
      { typeCode: 'label', imageFormat: 'PDF', content: b64 },
      { typeCode: 'waybillDoc', imageFormat: 'PDF', content: b64 },
      { typeCode: 'shipmentReceipt', imageFormat: 'PDF', content: b64 },
      { typeCode: 'invoice', imageFormat: 'PDF', content: '' },
    ]);
    expect(docs.map((d) => d.type)).toEqual(['waybill', 'receipt']);
  });

  it('registration numbers issued by the destination; DD only for a dutiable DDP', () => {
    expect(receiverRegistrationNumbers({ ...ukCustoms, importer: { ioss: 'IM1234567890', tax_id: 'T1' } }, 'de')).toEqual([
      { typeCode: 'SDT', number: 'IM1234567890', issuerCountryCode: 'DE' },
      { typeCode: 'FED', number: 'T1', issuerCountryCode: 'DE' },
    ]);
    expect(customsValueAddedServices(ukCustoms)).toEqual([{ serviceCode: 'DD' }]);
    expect(customsValueAddedServices({ ...ukCustoms, incoterm: 'DAP' })).toEqual([]);
    expect(customsValueAddedServices({ ...ukCustoms, contents_type: 'documents' })).toEqual([]);
  });
});
