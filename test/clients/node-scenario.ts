import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

// The conformance scenario (clients/conformance/scenario.json) through the Node client as a user
// installs it: the module is the packed tarball's dist/ (plain ESM JavaScript), imported from a
// project of its own. Operations are reached by operationId through `client.api`, the generated
// openapi-fetch client; iteration through `client.paginate`.
const root = path.resolve(import.meta.dirname, '../..');

type ClientModule = typeof import('../../packages/client/src/index.js');
type Api = Record<string, (path: string, init: unknown) => Promise<{ data?: unknown; error?: any; response: Response }>>;

interface Step {
  name: string;
  kind?: string;
  call: string;
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  repeat?: number;
  iterate?: boolean;
  expect?: Record<string, unknown>;
  expect_prefix?: Record<string, string>;
  expect_nonempty?: string[];
  expect_each_prefix?: Record<string, string>;
  expect_count?: number;
  expect_bytes_prefix?: string;
  expect_error?: { status: number; code: string; details_nonempty?: boolean };
  save?: Record<string, string>;
  max_calls?: number;
  expect_min_wait_seconds?: number;
  receiver_path?: string;
  events?: string[];
  expect_event_type?: string;
}

const dig = (v: any, p: string) => p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), v);

export async function runNodeScenario(mod: ClientModule, env: Record<string, string>): Promise<void> {
  const scenario = JSON.parse(readFileSync(path.join(root, 'clients/conformance/scenario.json'), 'utf8')) as { steps: Step[] };
  const doc = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
  const ops = new Map<string, { method: string; path: string }>();
  for (const [p, byMethod] of Object.entries(doc.paths))
    for (const [m, op] of Object.entries(byMethod)) ops.set(op.operationId, { method: m.toUpperCase(), path: p });

  const vars: Record<string, unknown> = { run: env.SHIPPING_RUN_ID, client: 'node', receiver_url: env.SHIPPING_RECEIVER_URL };
  const subst = (v: unknown): any =>
    typeof v === 'string'
      ? v.replace(/\$\{(\w+)\}/g, (_m, k: string) => String(vars[k]))
      : Array.isArray(v)
        ? v.map(subst)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x)]))
          : v;
  const client = mod.createShippingClient({ baseUrl: env.SHIPPING_BASE_URL, apiKey: env.SHIPPING_API_KEY, workspaceId: env.SHIPPING_WORKSPACE_ID });
  const call = (c: typeof client, step: Step, binary = false) => {
    const op = ops.get(step.call)!;
    const init: Record<string, unknown> = { params: { path: subst(step.path ?? {}), query: subst(step.query ?? {}) } };
    if (step.body !== undefined) init.body = subst(step.body);
    if (binary) init.parseAs = 'arrayBuffer';
    return (c.api as unknown as Api)[op.method](op.path, init);
  };

  for (const step of scenario.steps) {
    const where = step.name;
    if (step.kind === 'rate_limit') {
      const creds = { baseUrl: env.SHIPPING_BASE_URL, apiKey: env.SHIPPING_THROTTLED_API_KEY, workspaceId: env.SHIPPING_THROTTLED_WORKSPACE_ID };
      const impatient = mod.createShippingClient({ ...creds, retry: { maxRetries: 0 } });
      let refused: { error?: any; response: Response } | undefined;
      let calls = 0;
      for (; calls < step.max_calls! && !refused; calls++) {
        const r = await call(impatient, step);
        if (r.error) refused = r;
      }
      expect(refused, `${where}: no 429 within ${step.max_calls} calls`).toBeDefined();
      expect([refused!.response.status, refused!.error.code]).toEqual([step.expect_error!.status, step.expect_error!.code]);
      expect(refused!.error.request_id).toBeTruthy();
      expect(mod.retryAfterMs(refused!.response.headers.get('retry-after'))).toBeGreaterThan(0);
      // Up to as many calls as it took to be refused, plus one (stopping once the wait is seen): at
      // least one is refused again, so the run only lasts that long if a 429 was waited out.
      const started = Date.now();
      const patient = mod.createShippingClient(creds);
      for (let k = 0; k <= calls && (Date.now() - started) / 1000 < step.expect_min_wait_seconds!; k++)
        expect((await call(patient, step)).response.status, where).toBe(200);
      expect((Date.now() - started) / 1000, 'the retry did not wait for Retry-After').toBeGreaterThanOrEqual(step.expect_min_wait_seconds!);
      continue;
    }
    if (step.kind === 'webhook') {
      const target = subst(step.receiver_path) as string;
      const hook = await client.webhooks.create({ url: env.SHIPPING_RECEIVER_URL + target, events: step.events as never });
      const secret = (hook as { secret: string }).secret;
      const tested = await client.api.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } });
      expect(tested.response.status, where).toBe(202);
      let received: Array<{ body: string; signature: string }> = [];
      for (const deadline = Date.now() + 60_000; received.length === 0 && Date.now() < deadline;) {
        received = (await (await fetch(`${env.SHIPPING_RECEIVER_URL}/_received${target}`)).json()) as typeof received;
        if (received.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
      expect(received.length, `${where}: no delivery reached the receiver`).toBeGreaterThan(0);
      const { body, signature } = received[0];
      expect(mod.verifyWebhookSignature(body, signature, ['whsec_not_this_one', secret])).toBe(true);
      expect(mod.verifyWebhookSignature(body, signature, ['whsec_not_this_one'])).toBe(false);
      expect(mod.verifyWebhookSignature(`${body} `, signature, secret)).toBe(false);
      expect(JSON.parse(body).type).toBe(step.expect_event_type);
      continue;
    }
    for (let i = 1; i <= (step.repeat ?? 1); i++) {
      vars.i = i;
      if (step.iterate) {
        const op = ops.get(step.call)!;
        const items: unknown[] = [];
        for await (const item of client.paginate(op.path as never, subst(step.query) as never, subst(step.path) as never)) items.push(item);
        expect(items.length, where).toBe(step.expect_count);
        for (const [p, prefix] of Object.entries(subst(step.expect_each_prefix ?? {}) as Record<string, string>))
          for (const item of items) expect(String(dig(item, p)), where).toMatch(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
        continue;
      }
      const r = await call(client, step, Boolean(step.expect_bytes_prefix));
      if (step.expect_error) {
        expect(r.error, `${where}: no error`).toBeDefined();
        expect([r.response.status, r.error.code], where).toEqual([step.expect_error.status, step.expect_error.code]);
        expect(r.error.message && r.error.request_id, where).toBeTruthy();
        // A body without details is read as no details (the other clients normalise it the same way).
        expect(Array.isArray(r.error.details ?? []), where).toBe(true);
        if (step.expect_error.details_nonempty) expect((r.error.details ?? []).length, where).toBeGreaterThan(0);
        continue;
      }
      expect(r.error, `${where}: ${JSON.stringify(r.error)}`).toBeUndefined();
      if (step.expect_bytes_prefix) {
        expect(
          Buffer.from(r.data as ArrayBuffer)
            .subarray(0, step.expect_bytes_prefix.length)
            .toString(),
          where,
        ).toBe(step.expect_bytes_prefix);
        continue;
      }
      for (const [p, want] of Object.entries(subst(step.expect ?? {}))) expect(dig(r.data, p), `${where}: ${p}`).toEqual(want);
      for (const [p, prefix] of Object.entries(subst(step.expect_prefix ?? {}) as Record<string, string>))
        expect(String(dig(r.data, p)).startsWith(prefix), `${where}: ${p} is ${dig(r.data, p)}`).toBe(true);
      for (const p of step.expect_nonempty ?? []) expect(dig(r.data, p), `${where}: ${p}`).toBeTruthy();
      for (const [name, p] of Object.entries(step.save ?? {})) vars[name] = dig(r.data, p);
    }
  }
}
