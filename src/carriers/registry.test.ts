import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierHttpClient } from './http/client.js';
import { discoverCarriers, validateCarrierDefinition } from './registry.js';

describe('carrier registry', () => {
  it('discovers the four built-in carriers from their folders', async () => {
    const registry = await discoverCarriers();
    expect(registry.carriers.map((c) => c.slug)).toEqual(['dhl_express', 'fedex', 'ups', 'usps']);
    // Each folder declares its real-protocol driver too (`apiDriver`): none is listed by hand.
    expect([...registry.apiDrivers.keys()]).toEqual(['dhl_express', 'fedex', 'ups', 'usps']);
    expect(registry.apiDrivers.get('ups')!(new CarrierHttpClient()).carrier).toBe('ups');
    expect(registry.byServiceCode('ups_next_day_air')?.slug).toBe('ups');
    expect(registry.byServiceCode('dhl_express_worldwide')?.slug).toBe('dhl_express');
    expect(registry.get('usps')?.services.map((s) => s.code)).toEqual([
      'usps_ground_advantage',
      'usps_priority_mail',
      'usps_priority_mail_express',
      'usps_first_class_international',
      'usps_priority_mail_international',
      'usps_priority_mail_express_international',
    ]);
    expect(registry.serviceCodes.size).toBe(6 + 5 + 6 + 2);
  });

  describe('with broken carrier folders', () => {
    let dir: string;
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const good = `
      const fn = async () => ({ rates: [], unavailable: [] });
      export const carrier = {
        slug: 'good', name: 'Good', rate_table_version: 'good-1', observed_holidays: [],
        services: [{ code: 'good_ground', name: 'Good Ground', domestic: true, international: false, guaranteed: false }],
        capabilities: { rate: true, purchase: false, void: false, track: false },
        isValidTrackingNumber: () => true,
        label: { heading: 'GOOD #', routingCode: () => 'R', barcode: (tn) => ({ symbology: 'code128', text: tn }), displayTrackingNumber: (tn) => tn },
        adapter: { rate: fn },
      };`;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'carriers-'));
      const folder = async (name: string, file: string | null, body = '') => {
        await mkdir(join(dir, name));
        if (file) await writeFile(join(dir, name, file), body);
      };
      await folder('good', 'index.js', good);
      await folder('wrong_slug', 'index.js', good); // slug "good" in folder wrong_slug
      await folder('throws', 'index.js', `throw new Error('boom at import');`);
      await folder('no_export', 'index.js', `export const something = 1;`);
      await folder('lying', 'index.js', good.replaceAll("'good", "'lying").replace('purchase: false', 'purchase: true'));
      await folder('not_a_carrier', null); // a folder without index: ignored silently
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('loads the valid one, logs and skips the broken ones', async () => {
      const registry = await discoverCarriers({ dir, logger: { warn: (obj, msg) => warnings.push({ obj: obj as Record<string, unknown>, msg }) } });
      expect(registry.carriers.map((c) => c.slug)).toEqual(['good']);
      const skipped = warnings.map((w) => w.obj.carrier).sort();
      expect(skipped).toEqual(['lying', 'no_export', 'throws', 'wrong_slug']);
      expect(warnings.find((w) => w.obj.carrier === 'throws')?.msg).toMatch(/failed to load/);
      expect(JSON.stringify(warnings.find((w) => w.obj.carrier === 'lying')?.obj)).toMatch(/capability purchase is declared/);
    });
  });

  it('validates metadata field by field', () => {
    expect(validateCarrierDefinition(undefined, 'x')).toEqual(['index does not export `carrier`']);
    const problems = validateCarrierDefinition(
      {
        slug: 'acme',
        name: '',
        rate_table_version: 'v1',
        services: [
          { code: 'other_ground', name: 'x' },
          { code: 'acme_a', name: 'A' },
          { code: 'acme_a', name: 'A' },
          { code: 'acme_home', name: 'Home', return_service_code: 'acme_nowhere' },
          { code: 'acme_b', name: 'B', return_service_code: 'acme_a' },
        ],
        observed_holidays: [],
        isValidTrackingNumber: () => true,
        capabilities: { rate: true, purchase: false, void: false, track: false },
        adapter: { rate: async () => ({}), track: async () => ({}) },
      },
      'acme',
    );
    expect(problems).toEqual([
      'name is required',
      'service code "other_ground" must be "acme_<service>"',
      'duplicate service code acme_a',
      'service acme_home returns by "acme_nowhere", which is not one of its carrier\'s services',
      'label (the label presentation) is required',
      'adapter.track exists but capability track is not declared',
    ]);
  });
});
