/**
 * Route schemas compile on first use instead of at start-up. Compiling every validator and
 * response serializer up front costs ~0.8 s of a restart (Ajv and fast-json-stringify code
 * generation for every route); deferred, the service answers sooner, and `compileAll()`
 * finishes the work in small slices once it listens, between requests.
 */

import { createHash } from 'node:crypto';

type Validator = ((data: unknown) => unknown) & { errors?: unknown };
type Serializer = (data: unknown) => string;

export class DeferredCompilation {
  private readonly pending = new Set<() => unknown>();

  /** A response serializer compiled when first needed. */
  serializer(compile: () => Serializer): Serializer {
    const get = this.defer(compile);
    return (data) => get()(data);
  }

  /** An Ajv-style validator (result, and `errors` on the function) compiled when first needed. */
  validator(compile: () => Validator): Validator {
    const get = this.defer(compile);
    const validate: Validator = (data) => {
      const fn = get();
      const result = fn(data);
      validate.errors = fn.errors;
      return result;
    };
    return validate;
  }

  /** Compiles whatever is still pending, one schema per macrotask so requests are served in between. */
  compileAll(): Promise<void> {
    return new Promise((resolve) => {
      const step = () => {
        const next = this.pending.values().next();
        if (next.done) return resolve();
        next.value();
        setImmediate(step);
      };
      setImmediate(step);
    });
  }

  /** Schemas not compiled yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Forget what is pending (the app is closing). */
  clear(): void {
    this.pending.clear();
  }

  private defer<F>(compile: () => F): () => F {
    let compiled: F | undefined;
    const get = (): F => {
      if (compiled === undefined) {
        compiled = compile();
        this.pending.delete(get);
      }
      return compiled;
    };
    this.pending.add(get);
    return get;
  }
}

/**
 * The shared schemas (app.addSchema, keyed by `$id`) a route schema reaches through `$ref`,
 * transitively, or null when one of its references names no shared schema (the caller then
 * passes them all, and fast-json-stringify reports the reference as it would have).
 * fast-json-stringify checks and indexes every shared schema it is given for each serializer it
 * builds; handed all ~30 of them for each of the routes' several hundred response schemas,
 * that was most of the ~3 s of CPU the background compilation took after a start.
 */
export function schemasReached(schema: unknown, shared: Readonly<Record<string, unknown>>): Record<string, unknown> | null {
  const reached: Record<string, unknown> = {};
  const stack: unknown[] = [schema];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const hash = value.indexOf('#');
        const id = hash === -1 ? value : value.slice(0, hash);
        // '#/…' points inside the document that holds it, which is already here.
        if (id === '') continue;
        if (!Object.hasOwn(shared, id)) return null;
        if (!Object.hasOwn(reached, id)) {
          reached[id] = shared[id];
          stack.push(shared[id]);
        }
      } else if (typeof value === 'object') stack.push(value);
    }
  }
  return reached;
}

/**
 * One compiled serializer per distinct response schema. Fastify builds one for every route and
 * status code, and most routes answer their errors with the same schemas: compiled apart, the
 * common error response alone was 121 identical copies of fast-json-stringify's generated code
 * (~7 MB of source text, its bytecode and closures, held for the life of the process). What a
 * serializer does depends only on its schema, the shared schemas it reaches and the options, so
 * equal inputs share one function. The key is a digest, not the schemas' text, which would be
 * as large as what it saves.
 */
export class SerializerCache {
  private readonly compiled = new Map<string, Serializer>();

  get(inputs: { schema: unknown; shared: unknown; options: unknown }, compile: () => Serializer): Serializer {
    const key = createHash('sha256')
      .update(JSON.stringify([inputs.schema, inputs.shared, inputs.options]))
      .digest('base64');
    let serializer = this.compiled.get(key);
    if (!serializer) {
      serializer = compile();
      this.compiled.set(key, serializer);
    }
    return serializer;
  }

  /** Distinct serializers compiled. */
  get size(): number {
    return this.compiled.size;
  }
}
