// Shipping rules: what letting the rules choose costs a purchase.
// A rule set an operator would write is in place (RULES: four that do not match the bench's
// orders, ahead of the one that does, and a disabled one), so every choice walks the list.
//   purchase-auto  POST /v1/shipments with `service_code: "auto"` and with an explicit
//                  service_code, interleaved on the same run (auto, explicit, explicit, auto, …,
//                  so neither kind gets the warmer half), each a new order: p50/p99 of each and
//                  the p99 difference (goal ≤ 2 ms). The explicit purchases buy the service the
//                  rules choose, so the two kinds differ only by the rate-shop and the choice.
//   batch-rules    a purchase_labels batch without a service (the rules choose for each order)
//                  beside one naming that service, the same size and kind of orders: time of
//                  each and their ratio. Each kind first runs a small batch, not counted (the
//                  first batch of a process pays for the JIT). The explicit batch runs first:
//                  the rules' batch finds the tables larger, so the figure errs against the rules.
// Every order's parcel is a different weight (distinctWeightOrder): the quote cache (60 s, keyed
// by the rate query) would otherwise answer the rate-shop of all but the first order.
// The rules are deleted afterwards, so no later row's purchase is chosen by them.
import { SIZES, judge, round, type Context } from '../lib/context.js';
import { distinctWeightOrder } from '../lib/fixtures.js';
import { QUICK, latency } from '../lib/measure.js';
import { importOrders, runBatch } from './batch.js';
import { createOrders } from './shipments.js';

const GOAL_P99_MS = 2;
/** Labels of each kind bought in a batch before the measured ones (the batch path's first run pays for JIT and caches). */
const BATCH_WARMUP = QUICK ? 5 : 50;

const RULES = [
  { name: 'Holidays: fastest (off)', priority: 5, enabled: false, when: {}, then: { choose: 'fastest' } },
  {
    name: 'Never DHL to Canada',
    priority: 10,
    enabled: true,
    when: { destination_countries: ['CA'] },
    then: { exclude_carriers: ['dhl_express'], choose: 'cheapest' },
  },
  {
    name: 'Over 10 lb: UPS Ground',
    priority: 20,
    enabled: true,
    when: { weight_oz: { min: 160 } },
    then: { only_services: ['ups_ground'], choose: 'cheapest' },
  },
  {
    name: 'Fragile: no ground service, best value',
    priority: 30,
    enabled: true,
    when: { skus_any: ['VASE-L', 'VASE-S'] },
    then: { exclude_services: ['usps_ground_advantage', 'ups_ground', 'fedex_ground'], choose: 'best_value' },
  },
  { name: 'Alaska and Hawaii: fastest', priority: 40, enabled: true, when: { destination_states: ['AK', 'HI'] }, then: { choose: 'fastest' } },
];
/** The rule the bench's orders (US, 16–36 oz, a mug, to California) match. */
const MATCHING = {
  name: 'US: cheapest within 3 business days under $40, no FedEx',
  priority: 50,
  enabled: true,
  when: { destination_countries: ['US'] },
  then: { exclude_carriers: ['fedex'], max_business_days: 3, max_price: { amount: 4000, currency: 'USD' }, choose: 'cheapest' },
};

const RULE_COUNT = `${RULES.length + 1} shipping rules, ${RULES.filter((r) => r.enabled).length + 1} enabled, the last matches`;

interface Selection {
  rule_id: string | null;
  rule_name: string | null;
  strategy: string;
  chosen: string;
  considered: { excluded: boolean }[];
}

/** Runs `fn` with the rules in place (`matching` the rule the bench's orders match), then deletes them. */
async function withRules(ctx: Context, fn: (matching: { id: string; name: string }) => Promise<void>): Promise<void> {
  const { service, tenant } = ctx;
  const created: string[] = [];
  try {
    for (const rule of RULES) created.push((await service.call('POST', '/v1/shipping-rules', rule, tenant.headers)).id);
    const matching = await service.call('POST', '/v1/shipping-rules', MATCHING, tenant.headers);
    created.push(matching.id);
    await fn(matching);
  } finally {
    // No content-type on a DELETE without a body (Fastify refuses an empty JSON body).
    const { 'content-type': _json, ...headers } = tenant.headers;
    for (const id of created) await service.call('DELETE', `/v1/shipping-rules/${id}`, undefined, headers);
  }
}

/** What the rules choose for an order (without buying); it must be the matching rule's choice. */
async function ruleChoice(ctx: Context, orderId: string, matching: { id: string }): Promise<Selection> {
  const selection: Selection = await ctx.service.call('POST', '/v1/shipping-rules/evaluate', { order_id: orderId }, ctx.tenant.headers);
  if (selection.rule_id !== matching.id)
    throw new Error(`the bench's order was not chosen for by "${MATCHING.name}": ${JSON.stringify(selection).slice(0, 500)}`);
  return selection;
}

/**
 * The newest `count` shipments were bought as asked: those of `ruled` orders by the matching
 * rule's choice (their selection names it), the others by the named service (no selection).
 */
async function checkNewest(ctx: Context, count: number, ruled: (orderId: string) => boolean, matching: { id: string }): Promise<void> {
  const page: { data: { order_id: string; selection: Selection | null }[] } = await ctx.service.call(
    'GET',
    `/v1/shipments?limit=${count}`,
    undefined,
    ctx.tenant.headers,
  );
  if (!page.data.some((s) => ruled(s.order_id))) throw new Error(`none of the newest ${count} shipments was bought with the rules`);
  for (const s of page.data) {
    const ok = ruled(s.order_id) ? s.selection?.rule_id === matching.id : s.selection === null;
    if (!ok)
      throw new Error(`shipment of ${s.order_id} (${ruled(s.order_id) ? 'rules' : 'explicit'}) has selection ${JSON.stringify(s.selection).slice(0, 500)}`);
  }
}

export async function rulesPurchaseRow(ctx: Context): Promise<void> {
  await withRules(ctx, async (matching) => {
    const { service, tenant } = ctx;
    const perKind = SIZES.purchases + SIZES.purchaseWarmup;
    const orderIds = await createOrders(ctx, 2 * perKind, 'bench-auto', distinctWeightOrder);
    const selection = await ruleChoice(ctx, orderIds[0], matching);
    // ABBA: auto, explicit, explicit, auto, … (each kind as often first of a pair as second).
    const isAuto = (i: number) => i % 4 === 0 || i % 4 === 3;
    const sequence = orderIds.map((order_id, i) => ({
      method: 'POST',
      url: `${service.base}/v1/shipments`,
      headers: tenant.headers,
      body: JSON.stringify({ order_id, service_code: isAuto(i) ? 'auto' : selection.chosen, label_format: SIZES.labelFormat }),
      group: isAuto(i) ? 'auto' : 'explicit',
    }));
    // The first purchases of each kind warm the render workers, the rules cache and the JIT; they are not counted.
    const r = await latency(sequence, { warmupCount: 2 * SIZES.purchaseWarmup }, service.pid);
    if (r.non2xx) throw new Error(`label purchases failed (${r.non2xx}): ${r.firstError}`);
    const autoOrders = new Set(orderIds.filter((_, i) => isAuto(i)));
    await checkNewest(ctx, 4, (id) => autoOrders.has(id), matching);
    const auto = r.groups!.auto;
    const explicit = r.groups!.explicit;
    const difference = round(auto.p99 - explicit.p99);
    ctx.add({
      key: 'purchase-auto',
      name: `POST /v1/shipments with service_code "auto" (${RULE_COUNT}) beside the same service named, interleaved, one at a time, each a new order`,
      value: auto.p99,
      unit: 'ms p99',
      anchor: { name: `explicit service_code ${selection.chosen}, same run`, value: explicit.p99, unit: 'ms p99' },
      ratio: round(auto.p99 / explicit.p99),
      detail: {
        p99_difference_ms: difference,
        p50_ms: auto.p50,
        explicit_p50_ms: explicit.p50,
        max_ms: auto.max,
        explicit_max_ms: explicit.max,
        purchases_each: auto.n,
        chosen: `${selection.chosen} of ${selection.considered.length} options (${selection.considered.filter((o) => o.excluded).length} excluded)`,
      },
      target: `auto p99 within ${GOAL_P99_MS} ms of the explicit service's (a goal of this row only)`,
      met: judge(difference <= GOAL_P99_MS),
    });
  });
}

export async function rulesBatchRow(ctx: Context): Promise<void> {
  await withRules(ctx, async (matching) => {
    const items = SIZES.rulesBatchItems;
    // Weights of their own for each order (no quote of one serves another); the first
    // BATCH_WARMUP of each kind go to a warm-up batch of that kind, not counted.
    // Imported as two batches each: a batch holds at most 10,000 items.
    const ordersOf = async (from: number, ref: string) => {
      const warm = await importOrders(
        ctx,
        Array.from({ length: BATCH_WARMUP }, (_, i) => distinctWeightOrder(from + i, ref)),
      );
      const counted = await importOrders(
        ctx,
        Array.from({ length: items }, (_, i) => distinctWeightOrder(from + BATCH_WARMUP + i, ref)),
      );
      return { orderIds: [...warm.orderIds, ...counted.orderIds] };
    };
    const explicitOrders = await ordersOf(0, 'bench-rules-explicit');
    const ruledOrders = await ordersOf(BATCH_WARMUP + items, 'bench-rules-auto');
    const selection = await ruleChoice(ctx, ruledOrders.orderIds[0], matching);
    const batch = (orderIds: string[], serviceCode?: string) =>
      runBatch(ctx, { type: 'purchase_labels', order_ids: orderIds, ...(serviceCode ? { service_code: serviceCode } : {}), label_format: SIZES.labelFormat });
    await batch(explicitOrders.orderIds.slice(0, BATCH_WARMUP), selection.chosen);
    await batch(ruledOrders.orderIds.slice(0, BATCH_WARMUP));
    const explicit = await batch(explicitOrders.orderIds.slice(BATCH_WARMUP), selection.chosen);
    const ruled = await batch(ruledOrders.orderIds.slice(BATCH_WARMUP));
    // A batch whose items failed measures less than the work: no comparison of it.
    for (const [kind, { batch: b }] of [
      ['explicit', explicit],
      ['rules', ruled],
    ] as const) {
      if (b.status !== 'completed' || b.counts.failed > 0)
        throw new Error(`the ${kind} purchase_labels batch ended ${b.status} with ${b.counts.failed} of ${b.counts.total} failed`);
    }
    const ruledSet = new Set(ruledOrders.orderIds);
    await checkNewest(ctx, 4, (id) => ruledSet.has(id), matching);
    ctx.add({
      key: 'batch-rules',
      name: `purchase_labels batch without a service (${RULE_COUNT}), ${items.toLocaleString('en-US')} ${SIZES.labelFormat} labels, beside the same batch naming the service`,
      value: round(ruled.seconds, 1),
      unit: 's',
      anchor: { name: `service_code ${selection.chosen}`, value: round(explicit.seconds, 1), unit: 's' },
      ratio: round(ruled.seconds / explicit.seconds),
      detail: {
        items_per_s: Math.round(items / ruled.seconds),
        explicit_items_per_s: Math.round(items / explicit.seconds),
        difference_s: round(ruled.seconds - explicit.seconds, 1),
        difference_ms_per_label: round(((ruled.seconds - explicit.seconds) * 1000) / items),
        status: ruled.batch.status,
        failed: ruled.batch.counts.failed,
      },
      target: 'reported (a goal of this row only)',
      met: null,
    });
  });
}
