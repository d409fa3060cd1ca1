import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USPS_SPEC_DIR } from '../../../../test/helpers/usps-spec.js';
import { ukCustoms } from '../../../../test/helpers/driver-customs.js';
import { uspsAesItn, uspsCustomsProblem } from './customs.js';
import { manifestTrackingNumbers, parseScanFormResponse } from './scan-forms.js';

const from = { name: 'Dock Lead', street1: '12 Main St', city: 'Timonium', state: 'MD', postal_code: '21093', country: 'US' };

describe('USPS SCAN form parser', () => {
  const example = resolve(USPS_SPEC_DIR, 'SCANForm-LabelShipment-response.json');
  it.runIf(existsSync(example))("reads USPS's own multipart example (parts named otherwise than the description says)", () => {
    const text = readFileSync(example, 'utf8');
    const res = parseScanFormResponse(text, undefined, ['XXXXXXXXXXXXXXXXXXXXXX', '9200190999990000000001']);
    expect(res?.carrier_manifest_id).toBe('XXXXXXXXXXXXXXXXXXXXXXXXXX');
    expect(res?.document?.type).toBe('scan_form');
    expect(res?.document?.artifact.format).toBe('PDF');
    expect(res?.document?.artifact.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res?.rejected.map((r) => r.tracking_number)).toEqual(['9200190999990000000001']);
  });

  it('reads the vendor answer (flat metadata beside SCANFormImage); without a list of numbers, nothing is rejected', () => {
    const res = parseScanFormResponse(
      JSON.stringify({ manifestNumber: 'EFN1', SCANFormImage: Buffer.from('%PDF-1.4 x').toString('base64') }),
      'application/vnd.usps.labels+json',
      ['1'],
    );
    expect(res).toMatchObject({ carrier_manifest_id: 'EFN1', document: { type: 'scan_form' }, rejected: [] });
    expect(parseScanFormResponse('not json', 'application/json', [])).toBeNull();
  });

  it('lists every label of a multi-package or international shipment, once, without spaces', () => {
    const numbers = manifestTrackingNumbers({
      ship_date: '2026-03-02',
      address: from,
      shipments: [
        { tracking_number: '9200 1', carrier_shipment_id: '92001', service_code: 'usps_ground_advantage' },
        { tracking_number: '92002', carrier_shipment_id: '92002,92003', service_code: 'usps_ground_advantage' },
        { tracking_number: 'LX1', carrier_shipment_id: 'intl:LX1,LX2', service_code: 'usps_first_class_international' },
        { tracking_number: '92001', carrier_shipment_id: null, service_code: 'usps_ground_advantage' },
      ],
    });
    expect(numbers).toEqual(['92001', '92002', '92003', 'LX1', 'LX2']);
  });
});

describe('USPS customs helpers', () => {
  it('writes the exemption as USPS does and the ITN behind AES; refuses other currencies and over 30 lines', () => {
    expect(uspsAesItn(ukCustoms)).toBe('NO EEI 30.37(a)');
    expect(uspsAesItn({ ...ukCustoms, aes_itn: 'X20260302123456' })).toBe('AES X20260302123456');
    expect(uspsCustomsProblem(ukCustoms)).toBeNull();
    expect(uspsCustomsProblem({ ...ukCustoms, items: [{ ...ukCustoms.items[0], unit_value: { amount: 1, currency: 'CAD' } }] })?.carrier_code).toBe(
      'customs_currency',
    );
    expect(uspsCustomsProblem({ ...ukCustoms, items: Array.from({ length: 31 }, () => ukCustoms.items[0]) })?.carrier_code).toBe('customs_too_many_items');
  });
});
