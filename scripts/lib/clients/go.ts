// The Go template: clients/go/generated.go (enum string types with their constants, structs of
// the named schemas, a params struct per operation with a query string, one method per
// operation, an iterator per list, and the operation table Call dispatches on).
import { BANNER, iteratorId, pascal, type FieldType, type Model, type Operation, type Param } from './model.js';

const INITIALISMS: Record<string, string> = {
  Id: 'ID',
  Url: 'URL',
  Api: 'API',
  Http: 'HTTP',
  Json: 'JSON',
  Sku: 'SKU',
  Zpl: 'ZPL',
  Pdf: 'PDF',
  Mtls: 'MTLS',
  Sha256: 'SHA256',
  Ip: 'IP',
  Eta: 'ETA',
};
/** An exported Go name: `created_at` → `CreatedAt`, `order_id` → `OrderID`, `listOrders` → `ListOrders`. */
export function goName(s: string): string {
  const words = s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase());
  const name = words.map((w) => INITIALISMS[w] ?? w).join('');
  return /^\d/.test(name) ? `V${name}` : name;
}
const GO_KEYWORDS = new Set([
  'type',
  'func',
  'range',
  'map',
  'chan',
  'go',
  'select',
  'var',
  'const',
  'package',
  'import',
  'default',
  'case',
  'switch',
  'interface',
  'struct',
  'return',
  'break',
  'continue',
  'for',
  'if',
  'else',
  'goto',
  'defer',
  'fallthrough',
]);
const goLocal = (s: string) => {
  const n = goName(s);
  const local = n.replace(/^(ID|URL|API)/, (m) => m.toLowerCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());
  return GO_KEYWORDS.has(local) ? `${local}_` : local;
};
const str = (s: string) => JSON.stringify(s);

function goType(t: FieldType): string {
  switch (t.kind) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'object':
      return 'map[string]any';
    case 'any':
      return 'any';
    case 'enum':
    case 'ref':
      return t.name;
    case 'array':
      return `[]${goType(t.items)}`;
  }
}

const paramGoType = (p: Param) => (p.kind === 'integer' ? 'int' : p.kind === 'number' ? 'float64' : p.kind === 'boolean' ? 'bool' : 'string');

function resultType(op: Operation): string | undefined {
  const a = op.answer;
  if (a.kind === 'none') return undefined;
  if (a.kind === 'binary') return '[]byte';
  if (a.kind === 'text') return 'string';
  if (a.kind === 'page') return `*Page[${a.item ?? 'map[string]any'}]`;
  return a.schema ? `*${a.schema}` : 'map[string]any';
}

function comment(text: string, indent = ''): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + w.length > 96) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}// ${l}`);
}

function operation(op: Operation): string[] {
  const name = goName(op.id);
  const out: string[] = [];
  const hasParams = op.queryParams.length > 0;
  if (hasParams) {
    out.push(`// ${name}Params are the query parameters of ${name}; zero values are left out.`, `type ${name}Params struct {`);
    for (const p of op.queryParams) {
      const doc = [p.description, p.enumValues ? `One of ${p.enumValues.join(', ')}.` : ''].filter(Boolean).join(' ');
      if (doc) out.push(...comment(doc, '\t'));
      out.push(`\t${goName(p.name)}\t${paramGoType(p)}`);
    }
    out.push('}', '', `func (p *${name}Params) values() url.Values {`, '\tq := url.Values{}', '\tif p == nil {', '\t\treturn q', '\t}');
    for (const p of op.queryParams) {
      const f = `p.${goName(p.name)}`;
      if (p.kind === 'integer') out.push(`\tif ${f} != 0 {`, `\t\tq.Set(${str(p.name)}, strconv.Itoa(${f}))`, '\t}');
      else if (p.kind === 'number') out.push(`\tif ${f} != 0 {`, `\t\tq.Set(${str(p.name)}, strconv.FormatFloat(${f}, 'f', -1, 64))`, '\t}');
      else if (p.kind === 'boolean') out.push(`\tif ${f} {`, `\t\tq.Set(${str(p.name)}, "true")`, '\t}');
      else out.push(`\tif ${f} != "" {`, `\t\tq.Set(${str(p.name)}, ${f})`, '\t}');
    }
    out.push('\treturn q', '}', '');
  }
  const args = ['ctx context.Context', ...op.pathParams.map((p) => `${goLocal(p.name)} string`)];
  if (hasParams) args.push(`params *${name}Params`);
  if (op.body !== 'none') args.push('body any');
  args.push('opts ...RequestOption');
  const result = resultType(op);
  const pathArg = op.pathParams.length ? `map[string]string{${op.pathParams.map((p) => `${str(p.name)}: ${goLocal(p.name)}`).join(', ')}}` : 'nil';
  const call = (outVar: string) =>
    `c.do(ctx, ${str(op.method)}, ${str(op.path)}, ${pathArg}, ${hasParams ? 'params.values()' : 'nil'}, ${op.body !== 'none' ? 'body' : 'nil'}, ${outVar}, opts)`;
  out.push(...comment(`${name}: ${op.summary || op.id}. ${op.method} ${op.path}`));
  out.push(`func (c *Client) ${name}(${args.join(', ')}) ${result ? `(${result}, error)` : 'error'} {`);
  if (!result) out.push(`\treturn ${call('nil')}`);
  else if (result.startsWith('*'))
    out.push(`\tout := new(${result.slice(1)})`, `\tif err := ${call('out')}; err != nil {`, '\t\treturn nil, err', '\t}', '\treturn out, nil');
  else out.push(`\tvar out ${result}`, `\terr := ${call('&out')}`, '\treturn out, err');
  out.push('}', '');
  if (op.answer.kind === 'page' && hasParams) {
    const item = op.answer.item ?? 'map[string]any';
    const iname = goName(iteratorId(op.id));
    const iargs = [...op.pathParams.map((p) => `${goLocal(p.name)} string`), `params *${name}Params`, 'opts ...RequestOption'];
    out.push(
      `// ${iname} walks every page of ${name} with the same filters: for it.Next(ctx) { it.Item() }, then it.Err().`,
      `func (c *Client) ${iname}(${iargs.join(', ')}) *Pager[${item}] {`,
      `\tvar base ${name}Params`,
      '\tif params != nil {',
      '\t\tbase = *params',
      '\t}',
      `\treturn newPager(func(ctx context.Context, cursor string) (*Page[${item}], error) {`,
      '\t\tp := base',
      '\t\tp.Cursor = cursor',
      `\t\treturn c.${name}(${['ctx', ...op.pathParams.map((p) => goLocal(p.name)), '&p', 'opts...'].join(', ')})`,
      '\t})',
      '}',
      '',
    );
  }
  return out;
}

export function renderGo(model: Model): Record<string, string> {
  const out: string[] = [
    `// Code generated by npm run clients (scripts/clients.ts) from openapi.json. DO NOT EDIT.`,
    `// ${BANNER}`,
    '',
    'package shipping',
    '',
    'import (',
    '\t"context"',
    '\t"net/url"',
    '\t"strconv"',
    ')',
    '',
    'var (',
    '\t_ = url.Values{}',
    '\t_ = strconv.Itoa',
    ')',
    '',
  ];
  for (const e of model.enums) {
    out.push(...comment(`${e.name}: ${e.description || 'known values below'}. Any other string the service sends is kept as is (IsKnown reports false).`));
    out.push(`type ${e.name} string`, '', 'const (');
    for (const v of e.values) out.push(`\t${e.name}${goName(v)}\t${e.name} = ${str(v)}`);
    out.push(
      ')',
      '',
      `// IsKnown reports whether v is one of the values this client was generated with.`,
      `func (v ${e.name}) IsKnown() bool {`,
      '\tswitch v {',
      `\tcase ${e.values.map((v) => `${e.name}${goName(v)}`).join(', ')}:`,
      '\t\treturn true',
      '\t}',
      '\treturn false',
      '}',
      '',
    );
  }
  for (const s of model.schemas) {
    out.push(`// ${s.name} is the ${s.name} object of the API.${s.description ? ` ${s.description}` : ''}`, `type ${s.name} struct {`);
    for (const f of s.fields) {
      const t = goType(f.type);
      const pointer = f.nullable && !t.startsWith('[]') && !t.startsWith('map[') && t !== 'any' ? '*' : '';
      if (f.description) out.push(...comment(f.description, '\t'));
      out.push(`\t${goName(f.name)}\t${pointer}${t}\t\`json:"${f.name}${f.required ? '' : ',omitempty'}"\``);
    }
    out.push('}', '');
  }
  for (const op of model.operations) out.push(...operation(op));
  out.push('// operations maps each operationId of openapi.json to its method and path (for Call).', 'var operations = map[string][2]string{');
  const keyWidth = Math.max(...model.operations.map((op) => str(op.id).length + 1));
  for (const op of model.operations) out.push(`\t${`${str(op.id)}:`.padEnd(keyWidth)} {${str(op.method)}, ${str(op.path)}},`);
  out.push('}', '');
  return { 'clients/go/generated.go': align(out).join('\n') };
}
export { pascal };

/**
 * gofmt's column alignment, so the file is gofmt-clean without needing Go to generate it: inside
 * a const block or a struct, runs of lines (a blank or comment line ends a run) pad
 * each tab-separated cell to the widest in the run.
 */
function align(lines: string[]): string[] {
  const out = [...lines];
  let run: number[] = [];
  const flush = () => {
    const rows = run.map((i) => out[i].slice(1).split('\t'));
    const cols = Math.max(...rows.map((r) => r.length));
    for (let c = 0; c < cols - 1; c++) {
      const width = Math.max(...rows.filter((r) => r.length > c + 1).map((r) => r[c].length));
      for (const r of rows) if (r.length > c + 1) r[c] = r[c].padEnd(width);
    }
    run.forEach((i, k) => (out[i] = `\t${rows[k].join(' ')}`));
    run = [];
  };
  let inBlock = false;
  for (let i = 0; i < out.length; i++) {
    const line = out[i];
    if (/^(const \(|type \w+ struct \{)$/.test(line)) inBlock = true;
    else if (inBlock && (line === ')' || line === '}')) {
      if (run.length) flush();
      inBlock = false;
    } else if (inBlock) {
      if (line.trim() === '' || line.startsWith('\t//')) {
        if (run.length) flush();
      } else run.push(i);
    }
  }
  return out;
}
