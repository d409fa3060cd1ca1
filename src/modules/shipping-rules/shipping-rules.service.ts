import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import type { Page } from '../../platform/http/pagination.js';
import { newId } from '../../platform/ids.js';
import { writeAudit } from '../audit/index.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import type { Order } from '../orders/index.js';
import { quoteRates, type RateOption, type RateQueryResponse } from '../rates/index.js';
import { factsOfOrder, toCandidate } from './shipping-rules.facts.js';
import { decodeRuleCursor, deleteRule, findRuleById, insertRule, listEnabledRules, listRules, updateRule } from './shipping-rules.repo.js';
import type { CreateShippingRuleInput, EvaluateInput, Selection, ShippingRule, UpdateShippingRuleInput } from './shipping-rules.schemas.js';
import { selectService, type OrderFacts, type RuleForSelection, type SelectionOutcome } from './shipping-rules.select.js';
import { ruleProblems } from './shipping-rules.validation.js';
import { toShippingRule } from './shipping-rules.wire.js';

/** Enabled rules per workspace and environment, cached for the purchase path. */
const RULES_TTL_MS = 60_000;
const TOPIC = 'shipping_rules:';
const topic = (scope: Scope) => `${TOPIC}${scope.workspaceId}:${scope.environment}`;

/** Rates an order as a purchase would (the shipments module provides it, wired in src/compose.ts). */
export type OrderRater = (ctx: ServiceContext, orderId: string) => Promise<{ order: Order; quote: RateQueryResponse }>;

/** Where rate queries find the carrier accounts to ask. */
type RateSourceProvider = Pick<CarrierGateway, 'rateSources'>;

export class ShippingRulesService {
  readonly #deps: Deps;
  readonly #carriers: CarrierRegistry;
  readonly #sources: RateSourceProvider;
  readonly #rateOrder: OrderRater;
  readonly #enabled = new TtlCache<RuleForSelection[]>(RULES_TTL_MS, 20_000);

  constructor(deps: Deps, sources: RateSourceProvider, rateOrder: OrderRater) {
    this.#deps = deps;
    this.#carriers = deps.carriers;
    this.#sources = sources;
    this.#rateOrder = rateOrder;
    // A change on any process invalidates every process's copy (the bus is LISTEN/NOTIFY).
    deps.bus.subscribe((t) => {
      if (t === '*') this.#enabled.clear();
      else if (t.startsWith(TOPIC)) this.#enabled.delete(t.slice(TOPIC.length));
    });
  }

  async list(ctx: Scope, filter: { limit?: number; cursor?: string; enabled?: boolean }): Promise<Page<ShippingRule>> {
    if (filter.cursor) decodeRuleCursor(filter.cursor);
    const page = await listRules(this.#deps.db, ctx, filter);
    return { ...page, data: page.data.map(toShippingRule) };
  }

  async get(ctx: Scope, id: string): Promise<ShippingRule> {
    const row = await findRuleById(this.#deps.db, ctx, id);
    if (!row) throw notFound('shipping rule');
    return toShippingRule(row);
  }

  async create(ctx: ServiceContext, input: CreateShippingRuleInput): Promise<ShippingRule> {
    const { problems, when } = ruleProblems(this.#carriers, input.when ?? {}, input.then);
    if (problems.length > 0) throw validationError(problems);
    const row = await this.#deps.db.transaction().execute(async (trx) => {
      const inserted = await insertRule(trx, {
        id: newId('shippingRule'),
        workspace_id: ctx.workspaceId,
        environment: ctx.environment,
        name: input.name,
        priority: input.priority,
        enabled: input.enabled ?? true,
        conditions: JSON.stringify(when),
        actions: JSON.stringify(input.then),
      });
      await this.#audit(trx, ctx, 'shipping_rule.created', inserted.id, {
        name: input.name,
        priority: input.priority,
        enabled: inserted.enabled,
        when,
        then: input.then,
      });
      await this.#deps.bus.publish(topic(ctx), trx);
      return inserted;
    });
    return toShippingRule(row);
  }

  /** `when` and `then` are replaced whole; the result is checked as a create would be. */
  async update(ctx: ServiceContext, id: string, input: UpdateShippingRuleInput): Promise<ShippingRule> {
    const row = await this.#deps.db.transaction().execute(async (trx) => {
      const current = await findRuleById(trx, ctx, id);
      if (!current) throw notFound('shipping rule');
      const { problems, when } = ruleProblems(this.#carriers, input.when ?? current.conditions, input.then ?? current.actions);
      if (problems.length > 0) throw validationError(problems);
      const updated = await updateRule(trx, ctx, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.when !== undefined ? { conditions: JSON.stringify(when) } : {}),
        ...(input.then !== undefined ? { actions: JSON.stringify(input.then) } : {}),
      });
      if (!updated) throw notFound('shipping rule');
      await this.#audit(trx, ctx, 'shipping_rule.updated', id, { ...input, ...(input.when !== undefined ? { when } : {}) });
      await this.#deps.bus.publish(topic(ctx), trx);
      return updated;
    });
    return toShippingRule(row);
  }

  async remove(ctx: ServiceContext, id: string): Promise<void> {
    await this.#deps.db.transaction().execute(async (trx) => {
      const row = await deleteRule(trx, ctx, id);
      if (!row) throw notFound('shipping rule');
      await this.#audit(trx, ctx, 'shipping_rule.deleted', id, { name: row.name });
      await this.#deps.bus.publish(topic(ctx), trx);
    });
  }

  /** The enabled rules in the order they apply. Cached; every change invalidates it on every process. */
  async enabledRules(scope: Scope): Promise<RuleForSelection[]> {
    const key = `${scope.workspaceId}:${scope.environment}`;
    const hit = this.#enabled.get(key);
    if (hit) return hit;
    const rules = (await listEnabledRules(this.#deps.db, scope)).map((r) => ({
      id: r.id,
      name: r.name,
      enabled: r.enabled,
      when: r.conditions,
      then: r.actions,
    }));
    this.#enabled.set(key, rules);
    return rules;
  }

  /**
   * The rules' choice among the quoted options (those of a registered service): the selection
   * and the chosen option, or 422 no_rates naming the rule that excluded every option.
   * `rules: false` skips the rules (an explicit "cheapest"): the cheapest, explained the same way.
   */
  async select(
    scope: Scope,
    facts: OrderFacts,
    quote: RateQueryResponse,
    opts: { rules?: boolean } = {},
  ): Promise<{ selection: Selection; option: RateOption }> {
    const buyable = quote.data.filter((o) => this.#carriers.byServiceCode(o.service_code));
    const outcome = selectService(facts, buyable.map(toCandidate), opts.rules === false ? [] : await this.enabledRules(scope));
    if (!outcome.ok) throw noRates(outcome, quote);
    const option = buyable.find((o) => o.service_code === outcome.chosen.service_code && o.carrier_account_id === outcome.chosen.carrier_account_id)!;
    return { selection: outcome.selection, option };
  }

  /** POST /v1/shipping-rules/evaluate: the selection a purchase would make, without buying. */
  async evaluate(ctx: ServiceContext, input: EvaluateInput): Promise<Selection> {
    const { order_id: orderId, order_value: orderValue, skus, ...query } = input;
    const hasQuery = Object.keys(query).length > 0;
    if (orderId !== undefined) {
      if (hasQuery || orderValue !== undefined || skus !== undefined)
        throw validationError([{ field: 'order_id', message: 'is given with a rate query: send one or the other' }]);
      const { order, quote } = await this.#rateOrder(ctx, orderId);
      return (await this.select(ctx, factsOfOrder(order, quote.residential), quote)).selection;
    }
    const missing = (['ship_from', 'ship_to', 'parcel'] as const).filter((f) => query[f] === undefined);
    if (missing.length > 0) throw validationError(missing.map((field) => ({ field, message: 'is required (or send order_id)' })));
    const { ship_from, ship_to, parcel } = query as Required<Pick<typeof query, 'ship_from' | 'ship_to' | 'parcel'>>;
    const quote = await quoteRates(
      { ...query, ship_from, ship_to, parcel },
      { carriers: this.#carriers, sources: await this.#sources.rateSources(ctx, query.carrier_accounts), now: this.#deps.now(), requestId: ctx.requestId },
    );
    const facts: OrderFacts = {
      country: ship_to.country.trim().toUpperCase(),
      state: ship_to.state ?? null,
      residential: quote.residential,
      weight_oz: parcel.weight_oz,
      value: orderValue ?? null,
      skus: skus ?? [],
    };
    return (await this.select(ctx, facts, quote)).selection;
  }

  async #audit(trx: Parameters<typeof writeAudit>[0], ctx: ServiceContext, action: string, id: string, changes: Record<string, unknown>): Promise<void> {
    await writeAudit(trx, ctx.actor, ctx, {
      action,
      targetType: 'shipping_rule',
      targetId: id,
      changes,
      workspaceId: ctx.workspaceId,
      environment: ctx.environment,
    });
  }
}

/**
 * 422 no_rates: the rule that excluded every option and each option's reason; without a rule
 * (nothing could be rated), the carrier accounts that failed.
 */
function noRates(outcome: Extract<SelectionOutcome, { ok: false }>, quote: RateQueryResponse): AppError {
  const { rule, considered } = outcome;
  if (!rule) {
    return new AppError('no_rates', 'No service can carry this parcel on this lane.', {
      details: quote.messages.map((m) => ({ field: 'carrier_accounts', message: `${m.carrier}: ${m.message}` })),
    });
  }
  return new AppError('no_rates', `Shipping rule "${rule.name}" excluded every rate option.`, {
    details: [
      { field: 'shipping_rule', message: `${rule.id} ("${rule.name}") excluded every option`, rule_id: rule.id, rule_name: rule.name },
      ...considered.map((o) => ({
        field: 'considered',
        message: `${o.service_code}: ${o.reason}`,
        service_code: o.service_code,
        carrier_account_id: o.carrier_account_id,
      })),
    ],
  });
}
