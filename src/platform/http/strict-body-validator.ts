import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type ValueError } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { DATE_FORMAT_MESSAGES, DATE_FORMATS, type DateFormat } from './dates.js';

// The same date formats as the app-wide Ajv (dates.ts); TypeBox refuses a format it does not know.
for (const [name, check] of DATE_FORMATS) FormatRegistry.Set(name, check);

/**
 * A route-level body validator that does NOT coerce types: the app-wide Ajv turns "16" into
 * 16 and 123 into "123", but these endpoints promise that a wrong type is a 400 naming the
 * field. Errors come out in Ajv's shape (`instancePath`, `message`) so the shared error
 * handler turns them into `validation_failed` details: one message per field, in plain words.
 */
export function strictBodyValidator({ schema }: { schema: unknown }) {
  const check = TypeCompiler.Compile(schema as TSchema);
  return (value: unknown) => {
    if (check.Check(value)) return { value };
    const errors: { instancePath: string; message: string }[] = [];
    const seen = new Set<string>();
    for (const e of unfoldUnions(check.Errors(value))) {
      // The first error per field is the telling one ("is required" before "must be a string").
      if (seen.has(e.path)) continue;
      seen.add(e.path);
      errors.push({ instancePath: e.path, message: describe(e) });
      if (errors.length >= 20) break;
    }
    return { error: errors };
  };
}

/**
 * A value that fails `X | null` is reported inside X (`options.insurance.amount.currency`, not
 * "Expected union value" on `options.insurance`), so the detail names the field that is wrong.
 */
function* unfoldUnions(errors: Iterable<ValueError>): Iterable<ValueError> {
  for (const e of errors) {
    const branches = (e.schema as { anyOf?: TSchema[] }).anyOf;
    const other = branches?.length === 2 && e.value !== null ? branches.find((b) => b.type !== 'null') : undefined;
    if (e.type === ValueErrorType.Union && other && branches!.some((b) => b.type === 'null')) {
      for (const inner of Value.Errors(other, e.value)) yield { ...inner, path: e.path + inner.path };
    } else yield e;
  }
}

function describe(e: ValueError): string {
  const s = e.schema as Record<string, unknown>;
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Number:
      return 'must be a number';
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.Boolean:
      return 'must be a boolean';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.NumberExclusiveMinimum:
      return `must be > ${String(s.exclusiveMinimum)}`;
    case ValueErrorType.NumberMinimum:
      return `must be ≥ ${String(s.minimum)}`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${String(s.maxLength)} characters`;
    case ValueErrorType.StringMinLength:
      return `must be at least ${String(s.minLength)} characters`;
    case ValueErrorType.StringPattern:
      return typeof s.description === 'string' ? `must match: ${s.description}` : `must match ${String(s.pattern)}`;
    case ValueErrorType.StringFormat:
      return DATE_FORMAT_MESSAGES[s.format as DateFormat] ?? e.message;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${String(s.minItems)} item(s)`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${String(s.maxItems)} items`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not an allowed field';
    case ValueErrorType.Union: {
      const consts = ((s.anyOf as { const?: unknown }[] | undefined) ?? []).map((b) => b.const);
      return consts.length > 0 && consts.every((c) => typeof c === 'string') ? `must be one of: ${consts.join(', ')}` : e.message;
    }
    default:
      return e.message;
  }
}
