import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { createSpecChecker, type SpecChecker, type SpecOperation } from './carrier-openapi.js';

/**
 * UPS's published OpenAPI documents (../shared/carrier-specs/ups), loaded as published and
 * turned into request/response validators for the fake UPS server.
 *
 * Read as published, with the in-memory repairs the files need (never edited on disk):
 * - CRLF line ends → LF; TABs (Shipping.yaml, Tracking.yaml) → two spaces;
 * - Shipping.yaml has two single-quoted descriptions whose continuation lines are indented no
 *   deeper than their key (line 14219 `AgentRole`, …): `yaml` and `js-yaml` both refuse them,
 *   so such continuation lines are indented two more spaces.
 * Known contradictions between UPS's constraints and UPS's own listed values, where the
 * validator follows the listed value (see `OVERRIDES` below):
 * - Rating `requestoption` path parameter: maxLength 10, yet lists `Shoptimeintransit` (17);
 * - Pickup creation `PickupDateInfo.PickupDate`: minLength = maxLength = 4, yet described as
 *   yyyyMMdd, and every example sends 8 characters.
 */

/** `UPS_SPECS_DIR` points elsewhere (or at nothing, to prove the tests run without the documents). */
export const UPS_SPEC_DIR = process.env.UPS_SPECS_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/carrier-specs/ups');
const FILES = ['OAuthClientCredentials', 'Rating', 'Shipping', 'Tracking', 'AddressValidation', 'Pickup'] as const;

type Doc = Record<string, any>;

export function readUpsYaml(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^( *)[A-Za-z0-9_$"-]+: '(.*)$/.exec(lines[i]);
    if (!m || m[2].replace(/''/g, '').includes("'")) continue;
    const indent = m[1].length;
    for (let j = i + 1; j < lines.length; j++) {
      const lead = /^ */.exec(lines[j])![0].length;
      if (lead <= indent && lines[j].trim() !== '') lines[j] = ' '.repeat(indent + 2 - lead) + lines[j];
      if (lines[j].replace(/''/g, '').includes("'")) break;
    }
  }
  return lines.join('\n');
}

export type UpsOperation = SpecOperation;
export type UpsSpecs = SpecChecker;

const OVERRIDES: ((docs: Record<string, Doc>) => void)[] = [
  (docs) => {
    const info = docs.Pickup?.components?.schemas?.PickupCreationRequest_PickupDateInfo;
    if (info?.properties?.PickupDate) Object.assign(info.properties.PickupDate, { minLength: 8, maxLength: 8 });
  },
];

export function loadUpsSpecs(): UpsSpecs | null {
  if (!existsSync(UPS_SPEC_DIR)) return null;
  const docs: Record<string, Doc> = {};
  for (const f of FILES) docs[f] = parseYaml(readUpsYaml(readFileSync(resolve(UPS_SPEC_DIR, `${f}.yaml`), 'utf8')), { maxAliasCount: -1 });
  for (const o of OVERRIDES) o(docs);
  return createSpecChecker(docs, {
    idPrefix: 'ups-',
    carrier: 'UPS',
    skip: (template, op) => template.includes('deprecatedVersion') || /^deprecated/i.test(op.operationId ?? ''),
    checkParameter(op, p, value) {
      // `version` lists one valid value, the schema's default.
      if (p.in === 'path' && p.name === 'version' && p.schema?.default && value !== p.schema.default)
        return [`path version must be ${p.schema.default}, got ${value}`];
      // Contradiction: maxLength 10, but the listed values include Shoptimeintransit.
      if (op.operationId === 'Rate' && p.name === 'requestoption') {
        return ['Rate', 'Shop', 'Ratetimeintransit', 'Shoptimeintransit'].includes(value) ? [] : [`requestoption ${value} is not a listed value`];
      }
      return undefined;
    },
  });
}
