import { describe, expect, it } from 'vitest';
import { DeferredCompilation } from './lazy-compilers.js';

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
