import { Kind, Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * `schema` or null, for request bodies, written as a JSON Schema type array
 * (`type: ['string', 'null']`), not as `anyOf`. With Ajv's `coerceTypes` an `anyOf` of
 * string and null coerces a null to "" in its first branch (and a number's null to 0), so a
 * client's null would arrive as an empty string; a type array accepts null as it is. It also
 * gives one error per bad field instead of one per branch. For primitives and objects (the
 * schema must have a single `type`).
 */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  if (typeof schema.type !== 'string') throw new TypeError('nullable() needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, [Kind]: 'Unsafe', type: [schema.type, 'null'] });
}
