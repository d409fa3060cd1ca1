import { Type, type Static } from '@sinclair/typebox';
import { PUT_SETTING_BODY_EXAMPLE, SETTING_EXAMPLE } from './settings.examples.js';

export const SettingSchema = Type.Object(
  {
    key: Type.String(),
    value: Type.Unknown({ description: 'The value in force (the default while never set).' }),
    default: Type.Unknown(),
    schema: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON schema every value must satisfy.' }),
    description: Type.String(),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    updated_by: Type.Union([Type.String(), Type.Null()], { description: 'Account id of the last change.' }),
  },
  { $id: 'Setting', title: 'Setting', examples: [SETTING_EXAMPLE] },
);
export type SettingWire = Static<typeof SettingSchema>;

export const SettingKeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 128 }) });

export const PutSettingBody = Type.Object(
  { value: Type.Unknown({ description: 'The new value; must satisfy the key\u2019s schema.' }) },
  { additionalProperties: false, examples: [PUT_SETTING_BODY_EXAMPLE] },
);
