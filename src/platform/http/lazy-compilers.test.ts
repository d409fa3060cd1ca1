import { describe, expect, it } from 'vitest';
import fastJsonStringify from 'fast-json-stringify';
import { DeferredCompilation, SerializerCache, schemasReached } from './lazy-compilers.js';

describe('DeferredCompilation', () => {
  it('compiles a serializer on its first call, once', () => {
    const c = new DeferredCompilation();
    let compiled = 0;
    const serialize = c.serializer(() => {
      compiled++;
      return (data) => JSON.stringify(data);
    });
    expect(compiled).toBe(0);
    expect(c.size).toBe(1);
    expect(serialize({ a: 1 })).toBe('{"a":1}');
    expect(serialize([2])).toBe('[2]');
    expect(compiled).toBe(1);
    expect(c.size).toBe(0);
  });

  it('passes the validator result and its errors through', () => {
    const c = new DeferredCompilation();
    const validate = c.validator(() => {
      const fn = (data: unknown) => {
        fn.errors = typeof data === 'number' ? null : [{ instancePath: '', message: 'must be a number' }];
        return typeof data === 'number';
      };
      fn.errors = null as unknown;
      return fn;
    });
    expect(validate('x')).toBe(false);
    expect(validate.errors).toEqual([{ instancePath: '', message: 'must be a number' }]);
    expect(validate(1)).toBe(true);
    expect(validate.errors).toBeNull();
  });

  it('compileAll finishes every pending schema, yielding to other work in between', async () => {
    const c = new DeferredCompilation();
    const order: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      c.serializer(() => {
        order.push(name);
        return () => name;
      });
    }
    const done = c.compileAll();
    setImmediate(() => order.push('request'));
    await done;
    expect(c.size).toBe(0);
    expect(order.filter((x) => x !== 'request')).toEqual(['a', 'b', 'c']);
    expect(order.indexOf('request')).toBeLessThan(order.length - 1); // interleaved, not after all
  });
});

describe('schemasReached', () => {
  const Money = { $id: 'Money', type: 'object', properties: { amount: { type: 'integer' }, currency: { type: 'string' } } };
  const Line = { $id: 'Line', type: 'object', properties: { sku: { type: 'string' }, price: { $ref: 'Money' } } };
  const Order = { $id: 'Order', type: 'object', properties: { id: { type: 'string' }, lines: { type: 'array', items: { $ref: 'Line#' } } } };
  const Unrelated = { $id: 'Unrelated', type: 'object', properties: { x: { type: 'string' } } };
  const shared = { Money, Line, Order, Unrelated };

  it('finds the shared schemas a schema refers to, through their own references', () => {
    const page = { type: 'object', properties: { data: { type: 'array', items: { $ref: 'Order' } }, next: { type: 'string' } } };
    expect(schemasReached(page, shared)).toEqual({ Order, Line, Money });
    expect(schemasReached({ type: 'object', properties: { code: { type: 'string' } } }, shared)).toEqual({});
    // A pointer inside the same document names no shared schema.
    expect(schemasReached({ definitions: { a: { type: 'string' } }, properties: { b: { $ref: '#/definitions/a' } } }, shared)).toEqual({});
  });

  it('gives up (null) on a reference to no shared schema, so the serializer sees them all', () => {
    expect(schemasReached({ properties: { a: { $ref: 'Nowhere' } } }, shared)).toBeNull();
  });

  it('serializes as with every shared schema given', () => {
    const page = { type: 'object', properties: { data: { type: 'array', items: { $ref: 'Order' } } } } as const;
    const value = { data: [{ id: 'ord_1', lines: [{ sku: 'MUG', price: { amount: 1250, currency: 'USD', extra: 1 } }], dropped: true }] };
    const all = fastJsonStringify(page, { schema: shared as never });
    const reached = fastJsonStringify(page, { schema: schemasReached(page, shared) as never });
    expect(reached(value)).toBe(all(value));
    expect(JSON.parse(reached(value))).toEqual({ data: [{ id: 'ord_1', lines: [{ sku: 'MUG', price: { amount: 1250, currency: 'USD' } }] }] });
  });
});

describe('SerializerCache', () => {
  const Error = { $id: 'Error', type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } as const;
  const errorResponse = { $ref: 'Error#' };

  it('compiles equal schemas once: every route answering an error with it shares the function', () => {
    const cache = new SerializerCache();
    let compiled = 0;
    const compile = () => {
      compiled++;
      return fastJsonStringify(errorResponse, { schema: { Error } as never }) as (data: unknown) => string;
    };
    // Two routes' copies of the same schema (equal, not the same objects), as Fastify hands them over.
    const a = cache.get({ schema: structuredClone(errorResponse), shared: { Error: structuredClone(Error) }, options: {} }, compile);
    const b = cache.get({ schema: structuredClone(errorResponse), shared: { Error: structuredClone(Error) }, options: {} }, compile);
    expect(compiled).toBe(1);
    expect(b).toBe(a);
    expect(cache.size).toBe(1);
    expect(a({ code: 'not_found', message: 'No such order.', extra: 1 })).toBe('{"code":"not_found","message":"No such order."}');
  });

  it('compiles again for a different schema, shared schema or options', () => {
    const cache = new SerializerCache();
    let compiled = 0;
    const compile = () => {
      compiled++;
      return (data: unknown) => JSON.stringify(data);
    };
    cache.get({ schema: errorResponse, shared: { Error }, options: {} }, compile);
    cache.get({ schema: { type: 'object' }, shared: { Error }, options: {} }, compile);
    cache.get({ schema: errorResponse, shared: { Error: { ...Error, required: ['code'] } }, options: {} }, compile);
    cache.get({ schema: errorResponse, shared: { Error }, options: { rounding: 'floor' } }, compile);
    expect(compiled).toBe(4);
    expect(cache.size).toBe(4);
  });
});
