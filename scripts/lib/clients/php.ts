// The PHP template: clients/php/src/Generated/Operations.php (a trait with one method per
// operation and an iterator per list, used by the hand-written Client) and one class of
// constants per enum in clients/php/src/Enum/.
import { BANNER, iteratorId, type Model, type Operation } from './model.js';

const str = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const camel = (s: string) => s.replace(/[_-]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const constName = (v: string) =>
  v
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^(\d)/, '_$1');

function returnType(op: Operation): [string, string] {
  const a = op.answer;
  if (a.kind === 'none') return ['void', 'void'];
  if (a.kind === 'binary' || a.kind === 'text') return ['string', a.kind === 'binary' ? 'string the label bytes' : 'string'];
  if (a.kind === 'page') return ['array', `array{data: list<array<string, mixed>>, has_more: bool, next_cursor: ?string} a page of ${a.item ?? 'objects'}`];
  return ['array', `array<string, mixed> ${a.schema ? `the ${a.schema}` : 'the answer'}`];
}

function method(op: Operation): string[] {
  const name = op.id;
  const args = op.pathParams.map((p) => `string $${camel(p.name)}`);
  const doc = [`    /**`, `     * ${op.summary || op.id}.`, `     *`, `     * ${op.method} ${op.path}`];
  if (op.body !== 'none') args.push(op.body === 'required' ? 'array $body' : '?array $body = null');
  if (op.queryParams.length) {
    args.push('array $query = []');
    doc.push('     *', '     * @param array<string, mixed> $query ' + op.queryParams.map((p) => p.name).join(', '));
    for (const p of op.queryParams.filter((q) => q.description || q.enumValues))
      doc.push(`     *   ${p.name}: ${[p.description, p.enumValues ? `one of ${p.enumValues.join(', ')}` : ''].filter(Boolean).join(' ')}`);
  }
  if (op.method === 'POST') args.push('?string $idempotencyKey = null');
  const [ret, retDoc] = returnType(op);
  doc.push(`     * @return ${retDoc}`, '     */');
  const pathArr = `[${op.pathParams.map((p) => `${str(p.name)} => $${camel(p.name)}`).join(', ')}]`;
  const call = `$this->request(${str(op.method)}, ${str(op.path)}, ${pathArr}, ${op.queryParams.length ? '$query' : '[]'}, ${op.body !== 'none' ? '$body' : 'null'}, ${op.method === 'POST' ? '$idempotencyKey' : 'null'}, ${str(op.answer.kind)})`;
  const out = [
    ...doc,
    `    public function ${name}(${args.join(', ')}): ${ret}`,
    '    {',
    ret === 'void' ? `        ${call};` : `        return ${call};`,
    '    }',
    '',
  ];
  if (op.answer.kind === 'page') {
    const iargs = [...op.pathParams.map((p) => `string $${camel(p.name)}`), 'array $query = []'];
    const callArgs = [...op.pathParams.map((p) => `$${camel(p.name)}`), '$q'];
    out.push(
      '    /**',
      `     * Every item of ${name}() across all pages, fetched as the loop asks, with the same filters.`,
      '     *',
      '     * @param array<string, mixed> $query',
      '     * @return \\Generator<int, array<string, mixed>>',
      '     */',
      `    public function ${iteratorId(op.id)}(${iargs.join(', ')}): \\Generator`,
      '    {',
      `        return $this->paginate(fn (array $q): array => $this->${name}(${callArgs.join(', ')}), $query);`,
      '    }',
      '',
    );
  }
  return out;
}

export function renderPhp(model: Model): Record<string, string> {
  const files: Record<string, string> = {};
  const ops = [
    '<?php',
    '',
    `// ${BANNER}`,
    '',
    'declare(strict_types=1);',
    '',
    'namespace ShippingService\\Generated;',
    '',
    '/**',
    ' * One method per operation of openapi.json; the Client supplies request() and paginate().',
    ' */',
    'trait Operations',
    '{',
    '    /** @var array<string, array{0: string, 1: string}> operationId => [method, path] */',
    '    public const OPERATIONS = [',
    ...model.operations.map((o) => `        ${str(o.id)} => [${str(o.method)}, ${str(o.path)}],`),
    '    ];',
    '',
  ];
  for (const op of model.operations) ops.push(...method(op));
  ops.push(
    '    /**',
    '     * @param array<string, string> $pathParams',
    '     * @param array<string, mixed> $query',
    '     * @return mixed',
    '     */',
    '    abstract protected function request(string $method, string $path, array $pathParams, array $query, ?array $body, ?string $idempotencyKey, string $answer);',
    '',
    '    /**',
    '     * @param callable(array<string, mixed>): array<string, mixed> $fetch',
    '     * @param array<string, mixed> $query',
    '     */',
    '    abstract protected function paginate(callable $fetch, array $query): \\Generator;',
    '}',
    '',
  );
  files['clients/php/src/Generated/Operations.php'] = ops.join('\n');
  for (const e of model.enums) {
    files[`clients/php/src/Enum/${e.name}.php`] = [
      '<?php',
      '',
      `// ${BANNER}`,
      '',
      'declare(strict_types=1);',
      '',
      'namespace ShippingService\\Enum;',
      '',
      '/**',
      ` * Known values of ${e.name}${e.description ? `: ${e.description}` : ''}.`,
      ' *',
      ' * Plain string constants rather than a native enum, so a value the service adds later stays a',
      ' * usable string: isKnown() says whether this version knows it.',
      ' */',
      `final class ${e.name}`,
      '{',
      ...e.values.map((v) => `    public const ${constName(v)} = ${str(v)};`),
      '',
      `    public const VALUES = [${e.values.map((v) => `self::${constName(v)}`).join(', ')}];`,
      '',
      '    public static function isKnown(string $value): bool',
      '    {',
      '        return in_array($value, self::VALUES, true);',
      '    }',
      '}',
      '',
    ].join('\n');
  }
  return files;
}
