import { describe, expect, it } from 'vitest';
import { upsCredentialsSchema } from '../../src/carriers/ups/api/credentials.js';
import { credentialFieldNames, credentialsFromDraft, emptyDraft, fieldLabel, type JsonSchema } from '../../web/src/pages/credentials-draft.js';

// The dashboard's credentials form, apart from its drawing: the UPS schema the browser test
// fills, plus the kinds of property no driver declares yet (enum, number, boolean, object), so
// the next carrier's schema is drawn and sent right the first time.
const RICH: JsonSchema = {
  type: 'object',
  required: ['api_key', 'region'],
  properties: {
    api_key: { type: 'string', writeOnly: true, default: 'never-shown' },
    region: { type: 'string', enum: ['us', 'eu'], default: 'us' },
    tier: { type: 'integer', enum: [1, 2, 3] },
    timeout_s: { type: 'integer', minimum: 1 },
    rate: { type: ['number', 'null'] },
    verbose: { type: 'boolean', default: true },
    extra: { type: 'object' },
    meter_number: { type: 'string', title: 'Meter number' },
  },
};

describe('credentials draft', () => {
  it('starts blank, with the schema’s defaults and the account’s known values, never a secret', () => {
    expect(emptyDraft(upsCredentialsSchema as unknown as JsonSchema)).toEqual({ client_id: '', client_secret: '' });
    // Editing: the masked answer's non-secret values come back, the secret's mask does not.
    expect(emptyDraft(upsCredentialsSchema as unknown as JsonSchema, { client_id: 'abc', client_secret: '••••9f3a' })).toEqual({
      client_id: 'abc',
      client_secret: '',
    });
    expect(emptyDraft(RICH, { extra: { a: 1 } })).toEqual({
      api_key: '',
      region: 'us',
      tier: '',
      timeout_s: '',
      rate: '',
      verbose: true,
      extra: '{"a":1}',
      meter_number: '',
    });
    expect(emptyDraft(null)).toEqual({});
  });

  it('sends typed values in their JSON types and leaves blanks out, so the service says what is required', () => {
    expect(credentialsFromDraft(upsCredentialsSchema as unknown as JsonSchema, { client_id: 'abc', client_secret: '' })).toEqual({ client_id: 'abc' });
    expect(
      credentialsFromDraft(RICH, {
        api_key: 's3cret',
        region: 'eu',
        tier: '2',
        timeout_s: '30',
        rate: '1.5',
        verbose: false,
        extra: '{"a":[1]}',
        meter_number: '007',
      }),
    ).toEqual({ api_key: 's3cret', region: 'eu', tier: 2, timeout_s: 30, rate: 1.5, verbose: false, extra: { a: [1] }, meter_number: '007' });
  });

  it('sends what is not of the schema’s type as typed, for the service to name the field', () => {
    expect(credentialsFromDraft(RICH, { timeout_s: 'soon', rate: ' ', extra: '{oops', verbose: true })).toEqual({
      timeout_s: 'soon',
      rate: ' ',
      extra: '{oops',
      verbose: true,
    });
  });

  it('labels fields by title, else by name; names the fields whose errors it shows', () => {
    expect(fieldLabel('meter_number', RICH.properties!.meter_number)).toBe('Meter number');
    expect(fieldLabel('client_id', {})).toBe('Client id');
    expect(credentialFieldNames(upsCredentialsSchema as unknown as JsonSchema)).toEqual(['credentials', 'credentials.client_id', 'credentials.client_secret']);
  });
});
