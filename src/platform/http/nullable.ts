import { Kind, Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * `schema` or null, written as a JSON Schema type array (`type: ['string', 'null']`), not as
 * `anyOf`: a bad value gives one error per field instead of one per branch, a coercing
 * validator (query strings) cannot turn a null into "" in the first branch, and the response
 * serializer writes it without trying each branch. For primitives and objects (the schema
 * must have a single `type`).
 */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  if (typeof schema.type !== 'string') throw new TypeError('nullable() needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, [Kind]: 'Unsafe', type: [schema.type, 'null'] });
}
