import { describe, expect, it } from 'vitest';
import { closeReport, isGroundService, parseCloseResponse } from './close.js';
import { kilogramsFromOz, parseShipmentDocuments } from './customs.js';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('FedEx close and customs parsers', () => {
  it('ground services are closed, Express ones are not', () => {
    expect(isGroundService('fedex_ground')).toBe(true);
    expect(isGroundService('fedex_home_delivery')).toBe(true);
    expect(isGroundService('fedex_2day')).toBe(false);
    expect(isGroundService('fedex_smart_post')).toBe(true);
    expect(isGroundService('ups_ground')).toBe(false);
  });

  it('the close report: OP_950 first, else MANIFEST, its first part by sequence, format from its bytes; an unknown format is left out', () => {
    const output = {
      closeDocuments: [
        { type: 'MANIFEST', parts: [{ documentPartSequenceNumber: 1, image: b64('%PDF-1.4 manifest') }] },
        {
          type: 'OP_950',
          parts: [
            { documentPartSequenceNumber: 2, image: b64('%PDF-1.4 second') },
            { documentPartSequenceNumber: 1, image: b64('%PDF-1.4 first') },
          ],
        },
      ],
    };
    expect(closeReport(output)?.artifact.bytes.toString()).toBe('%PDF-1.4 first');
    expect(closeReport({ closeDocuments: [{ type: 'MANIFEST', parts: [{ image: b64('^XA^FDx^XZ') }] }] })?.artifact.format).toBe('ZPL');
    expect(closeReport({ closeDocuments: [{ type: 'MANIFEST', parts: [{ image: b64('plain text report') }] }] })).toBeNull();
    expect(closeReport({ closeDocuments: [{ type: 'OP_950', accessReference: 'stored' }] })).toBeNull();
    expect(parseCloseResponse({ transactionId: 't1', output: {} }, [])).toEqual({ carrier_manifest_id: 't1', document: null, rejected: [] });
    expect(parseCloseResponse({ errors: [] }, [])).toBeNull();
  });

  it('shipment documents other than labels come back typed; kilograms round up to two decimals', () => {
    const docs = parseShipmentDocuments({
      shipmentDocuments: [
        { contentType: 'LABEL', docType: 'PDF', encodedLabel: b64('%PDF label') },
        { contentType: 'COMMERCIAL_INVOICE', docType: 'PDF', encodedLabel: b64('%PDF invoice') },
        { contentType: 'USMCA_CERTIFICATION_OF_ORIGIN', docType: 'PDF', encodedLabel: b64('%PDF usmca') },
        { contentType: 'COMMERCIAL_INVOICE', docType: 'PDF', url: 'https://example.invalid/doc' },
      ],
    });
    expect(docs.map((d) => d.type)).toEqual(['commercial_invoice', 'usmca_certification_of_origin']);
    expect(kilogramsFromOz(16)).toBe(0.46);
    expect(kilogramsFromOz(0.01)).toBe(0.01);
  });
});
