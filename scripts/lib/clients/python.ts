// The Python template: clients/python/shipping_service/_generated.py (enums, TypedDicts of the
// named schemas, one method per operation on a mixin the hand-written ShippingClient extends).
import { BANNER, iteratorId, snake, type FieldType, type Model, type Operation, type Param } from './model.js';

const KEYWORDS = new Set(['from', 'import', 'class', 'def', 'return', 'global', 'in', 'is', 'not', 'and', 'or', 'async', 'await', 'lambda']);
/** A Python identifier for a wire name: snake_case, keywords get a trailing underscore (`from` → `from_`). */
const ident = (name: string) => (KEYWORDS.has(snake(name)) ? `${snake(name)}_` : snake(name));

const str = (s: string) => JSON.stringify(s);

function pyType(t: FieldType): string {
  switch (t.kind) {
    case 'string':
      return 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'object':
      return 'dict[str, Any]';
    case 'any':
      return 'Any';
    case 'enum':
      return 'str'; // a plain str on the wire: unknown values pass through (compare with the enum class)
    case 'ref':
      return t.name;
    case 'array':
      return `list[${pyType(t.items)}]`;
  }
}

const paramType = (p: Param) => (p.kind === 'integer' ? 'int' : p.kind === 'number' ? 'float' : p.kind === 'boolean' ? 'bool' : 'str');

function returnType(op: Operation): string {
  const a = op.answer;
  if (a.kind === 'none') return 'None';
  if (a.kind === 'binary') return 'bytes';
  if (a.kind === 'text') return 'str';
  if (a.kind === 'page') return `Page[${a.item ?? 'dict[str, Any]'}]`;
  return a.schema ?? 'dict[str, Any]';
}

function docstring(op: Operation, extra: string[] = []): string[] {
  const lines = [`${op.summary || op.id}.`.replace(/\.\.$/, '.'), '', `${op.method} ${op.path}`];
  const qp = op.queryParams.filter((p) => p.description || p.enumValues);
  if (qp.length) {
    lines.push('', 'Query parameters:');
    for (const p of qp)
      lines.push(`    ${ident(p.name)}: ${[p.description, p.enumValues ? `one of ${p.enumValues.join(', ')}` : ''].filter(Boolean).join(' ')}`);
  }
  lines.push(...extra);
  return ['        """' + lines[0], ...lines.slice(1).map((l) => (l ? `        ${l}` : '')), '        """'];
}

function method(op: Operation): string[] {
  const name = snake(op.id);
  const args = ['self', ...op.pathParams.map((p) => `${ident(p.name)}: str`)];
  if (op.body === 'required') args.push('body: Mapping[str, Any]');
  const kw: string[] = [];
  if (op.body === 'optional') kw.push('body: Mapping[str, Any] | None = None');
  for (const p of op.queryParams) kw.push(`${ident(p.name)}: ${paramType(p)} | None = None`);
  if (op.method === 'POST') kw.push('idempotency_key: str | None = None');
  const sig = [...args, ...(kw.length ? ['*', ...kw] : [])];
  const path = op.pathParams.length ? `{${op.pathParams.map((p) => `${str(p.name)}: ${ident(p.name)}`).join(', ')}}` : '{}';
  const query = op.queryParams.length ? `{${op.queryParams.map((p) => `${str(p.name)}: ${ident(p.name)}`).join(', ')}}` : '{}';
  const call = [`${str(op.method)}`, str(op.path), `path_params=${path}`, `query=${query}`];
  if (op.body !== 'none') call.push('body=body');
  if (op.method === 'POST') call.push('idempotency_key=idempotency_key');
  call.push(`answer=${str(op.answer.kind)}`);
  const out = [`    def ${name}(${sig.join(', ')}) -> ${returnType(op)}:`, ...docstring(op), `        return self._request(${call.join(', ')})`, ''];
  if (op.answer.kind === 'page') {
    const filters = op.queryParams.filter((p) => p.name !== 'cursor');
    const iargs = [...args, ...(filters.length ? ['*', ...filters.map((p) => `${ident(p.name)}: ${paramType(p)} | None = None`)] : [])];
    const kwargs = [...op.pathParams.map((p) => `${ident(p.name)}=${ident(p.name)}`), ...filters.map((p) => `${ident(p.name)}=${ident(p.name)}`)];
    out.push(
      `    def ${snake(iteratorId(op.id))}(${iargs.join(', ')}) -> Iterator[${op.answer.item ?? 'dict[str, Any]'}]:`,
      `        """Every item of \`${name}\` across all pages, fetched as the loop asks, with the same filters."""`,
      `        return self._paginate(self.${name}, ${kwargs.length ? `dict(${kwargs.join(', ')})` : '{}'})`,
      '',
    );
  }
  return out;
}

export function renderPython(model: Model): Record<string, string> {
  const out: string[] = [
    `# ${BANNER}`,
    `"""Types and operations of the ${model.title} ${model.version}: enums, schema TypedDicts and one method per operation."""`,
    'from __future__ import annotations',
    '',
    'from typing import Any, Generic, Iterator, Mapping, TypedDict, TypeVar',
    '',
    'from ._enum import OpenEnum',
    '',
    'T = TypeVar("T")',
    '',
    '',
  ];
  for (const e of model.enums) {
    out.push(`class ${e.name}(OpenEnum):`);
    out.push(
      `    """${(e.description || `Known values of ${e.name}`).replace(/"""/g, "'")}. Unknown values are kept: ${e.name}("new_value") does not raise."""`,
      '',
    );
    for (const v of e.values)
      out.push(
        `    ${v
          .toUpperCase()
          .replace(/[^A-Z0-9]+/g, '_')
          .replace(/^(\d)/, '_$1')} = ${str(v)}`,
      );
    out.push('', '');
  }
  out.push(
    'class Page(TypedDict, Generic[T]):',
    '    """One page of a list: the items, whether more follow, and the cursor for the next page."""',
    '',
    '    data: list[T]',
    '    has_more: bool',
    '    next_cursor: str | None',
    '',
    '',
  );
  for (const s of model.schemas) {
    out.push(
      `class ${s.name}(TypedDict, total=False):`,
      `    """The ${s.name} object.${s.description ? ` ${s.description}` : ''} Fields the service adds later are kept in the dict."""`,
      '',
    );
    for (const f of s.fields) {
      const t = pyType(f.type) + (f.nullable ? ' | None' : '');
      out.push(`    ${f.name}: ${t}${f.type.kind === 'enum' ? `  # ${f.type.name}` : ''}`);
    }
    out.push('', '');
  }
  out.push('class Operations:', '    """One method per operation of openapi.json; ShippingClient supplies _request and _paginate."""', '');
  out.push('    def _request(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover - ShippingClient', '        raise NotImplementedError', '');
  out.push(
    '    def _paginate(self, list_method: Any, kwargs: dict[str, Any]) -> Iterator[Any]:  # pragma: no cover - ShippingClient',
    '        raise NotImplementedError',
    '',
  );
  for (const op of model.operations) out.push(...method(op));
  out.push('', `OPERATIONS: dict[str, tuple[str, str]] = {`, ...model.operations.map((o) => `    ${str(o.id)}: (${str(o.method)}, ${str(o.path)}),`), '}', '');
  out.push(`ENUMS: dict[str, type[OpenEnum]] = {${model.enums.map((e) => `${str(e.name)}: ${e.name}`).join(', ')}}`, '');
  return { 'clients/python/shipping_service/_generated.py': `${out.join('\n').replace(/\n{3,}(?=\S)/g, (m) => (m.length > 3 ? '\n\n\n' : m))}` };
}
