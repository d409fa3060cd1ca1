/**
 * The fake Shopify's Admin API: every document is validated against the published schema
 * (graphql's `validate` with the specified rules plus "no deprecated fields"), its requested
 * cost computed as Shopify documents it (objects 1, connections 2 + `first` × a node, scalars 0,
 * mutations 10), and the subset the channel uses executed over the in-memory shop with
 * graphql's own `execute` (root resolvers; every other field resolves to null).
 */
import {
  execute,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  isLeafType,
  isListType,
  isObjectType,
  isNonNullType,
  NoDeprecatedCustomRule,
  coerceInputValue,
  typeFromAST,
  valueFromAST,
  type VariableDefinitionNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { gidNumber, type FakeFulfillment, type FakeFulfillmentOrder, type FakeOrder, type FakeShop } from './shop.js';

const RULES = [...specifiedRules, NoDeprecatedCustomRule];

/** Variables coerced against their declared types, as execution would (graphql's own coercion). */
function coerceVariables(schema: GraphQLSchema, defs: readonly VariableDefinitionNode[], given: Record<string, unknown>) {
  const errors: string[] = [];
  const coerced: Record<string, unknown> = {};
  for (const def of defs) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type);
    if (!type) continue;
    if (!(name in given) || given[name] === undefined) {
      if (def.defaultValue) coerced[name] = valueFromAST(def.defaultValue, type as never);
      else if (isNonNullType(type)) errors.push(`Variable "$${name}" of required type "${String(type)}" was not provided.`);
      continue;
    }
    coerced[name] = coerceInputValue(given[name], type as never, (path, _value, error) => {
      errors.push(`Variable "$${name}"${path.length ? ` at "${name}.${path.join('.')}"` : ''}: ${error.message}`);
    });
  }
  for (const k of Object.keys(given)) if (!defs.some((d) => d.variable.name.value === k)) errors.push(`Variable "$${k}" is sent but not declared`);
  return { errors, coerced };
}

export interface Prepared {
  document: DocumentNode | null;
  /** The root fields asked for (`orders`, `fulfillmentCreate`, …): fault injection keys on them. */
  rootFields: string[];
  mutation: boolean;
  cost: number;
  /** Validation and variable problems (every one is a violation). */
  problems: string[];
}

/** Parses, validates and prices a request body `{query, variables}`. */
export function prepare(schema: GraphQLSchema, body: unknown): Prepared {
  const b = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof b.query !== 'string') return { document: null, rootFields: [], mutation: false, cost: 0, problems: ['body has no query string'] };
  let document: DocumentNode;
  try {
    document = parse(b.query);
  } catch (err) {
    return { document: null, rootFields: [], mutation: false, cost: 0, problems: [`syntax: ${(err as Error).message}`] };
  }
  const problems = validate(schema, document, RULES).map((e) => e.message);
  const op = getOperationAST(document, typeof b.operationName === 'string' ? b.operationName : undefined);
  if (!op) return { document, rootFields: [], mutation: false, cost: 0, problems: [...problems, 'no single operation'] };
  const mutation = op.operation === 'mutation';
  const rootType = mutation ? schema.getMutationType()! : schema.getQueryType()!;
  const rootFields = op.selectionSet.selections.flatMap((s) => (s.kind === 'Field' ? [s.name.value] : []));
  let variables: Record<string, unknown> = {};
  if (problems.length === 0) {
    const coerced = coerceVariables(schema, op.variableDefinitions ?? [], (b.variables ?? {}) as Record<string, unknown>);
    if (coerced.errors.length) problems.push(...coerced.errors);
    else variables = coerced.coerced;
  }
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((d) => [d.name.value, d]),
  );
  const cost = problems.length ? 0 : (mutation ? 10 : 0) + selectionCost(schema, rootType, op.selectionSet, variables, fragments);
  return { document, rootFields, mutation, cost, problems };
}

function selectionCost(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  set: SelectionSetNode,
  variables: Record<string, unknown>,
  fragments: Record<string, FragmentDefinitionNode>,
): number {
  let total = 0;
  for (const sel of set.selections) {
    if (sel.kind === 'InlineFragment' || sel.kind === 'FragmentSpread') {
      const frag = sel.kind === 'FragmentSpread' ? fragments[sel.name.value] : sel;
      const on = frag?.typeCondition ? schema.getType(frag.typeCondition.name.value) : type;
      if (frag && on && isObjectType(on)) total += selectionCost(schema, on, frag.selectionSet, variables, fragments);
      continue;
    }
    const def = type.getFields()[sel.name.value];
    if (!def) continue;
    const named = getNamedType(def.type);
    if (isLeafType(named) || !isObjectType(named) || !sel.selectionSet) continue;
    const args = getArgumentValues(def, sel, variables);
    const first = typeof args.first === 'number' ? args.first : null;
    if (named.name.endsWith('Connection')) {
      // Each node (in `nodes` or `edges { node }`) costs 1 plus what it holds, `first` times; pageInfo is free.
      total += 2 + (first ?? 1) * (1 + connectionNodeCost(schema, named, sel.selectionSet, variables, fragments));
      continue;
    }
    const inner = selectionCost(schema, named, sel.selectionSet, variables, fragments);
    if (isListType(getNullableType(def.type))) {
      total += 2 + (first ?? 1) * (1 + inner);
    } else {
      total += 1 + inner;
    }
  }
  return total;
}

/** What one node of a connection selection holds (its nested objects), `nodes` or `edges { node }` alike. */
function connectionNodeCost(
  schema: GraphQLSchema,
  conn: GraphQLObjectType,
  set: SelectionSetNode,
  variables: Record<string, unknown>,
  fragments: Record<string, FragmentDefinitionNode>,
): number {
  let most = 0;
  for (const sel of set.selections) {
    if (sel.kind !== 'Field' || !sel.selectionSet) continue;
    const def = conn.getFields()[sel.name.value];
    const named = def && getNamedType(def.type);
    if (!named || !isObjectType(named)) continue;
    if (sel.name.value === 'nodes') most = Math.max(most, selectionCost(schema, named, sel.selectionSet, variables, fragments));
    if (sel.name.value === 'edges') {
      for (const inner of sel.selectionSet.selections) {
        if (inner.kind !== 'Field' || inner.name.value !== 'node' || !inner.selectionSet) continue;
        const nodeType = getNamedType(named.getFields().node.type);
        if (isObjectType(nodeType)) most = Math.max(most, selectionCost(schema, nodeType, inner.selectionSet, variables, fragments));
      }
    }
  }
  return most;
}

/** A connection over `items` with Shopify's cursor arguments (cursor = the item's position key). */
function connection<T>(items: T[], args: { first?: number | null; after?: string | null }, key: (t: T) => string) {
  let start = 0;
  if (args.after) {
    const after = Buffer.from(args.after, 'base64url').toString();
    const i = items.findIndex((t) => key(t) > after);
    start = i === -1 ? items.length : i;
  }
  const first = args.first ?? 50;
  const page = items.slice(start, start + first);
  const cursor = (t: T) => Buffer.from(key(t)).toString('base64url');
  return {
    nodes: page,
    edges: page.map((node) => ({ node, cursor: cursor(node) })),
    pageInfo: {
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length ? cursor(page[0]) : null,
      endCursor: page.length ? cursor(page[page.length - 1]) : null,
    },
  };
}

const pad = (n: number) => String(n).padStart(20, '0');

/** Shopify's search syntax, the one term the channel sends: `updated_at:>='<instant>'`. */
export function parseOrdersQuery(query: string | null | undefined): { since: number | null; problem: string | null } {
  if (!query) return { since: null, problem: null };
  const m = /^updated_at:>=(?:'([^']+)'|"([^"]+)"|(\S+))$/.exec(query.trim());
  if (!m) return { since: null, problem: `orders query "${query}" is not a term the fake understands` };
  const t = Date.parse(m[1] ?? m[2] ?? m[3]);
  return Number.isNaN(t) ? { since: null, problem: `orders query "${query}" has no valid instant` } : { since: t, problem: null };
}

function gqlOrder(shop: FakeShop, o: FakeOrder) {
  const a = o.shippingAddress;
  return {
    id: `gid://shopify/Order/${o.id}`,
    legacyResourceId: String(o.id),
    name: o.name,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    cancelledAt: o.cancelledAt,
    closed: false,
    currencyCode: o.currency,
    presentmentCurrencyCode: o.currency,
    displayFinancialStatus: o.financialStatus,
    displayFulfillmentStatus: shop.displayFulfillmentStatus(o),
    email: o.email,
    phone: o.phone,
    shippingAddress: a
      ? {
          name: [a.first_name, a.last_name].filter(Boolean).join(' ') || null,
          firstName: a.first_name,
          lastName: a.last_name,
          company: a.company,
          address1: a.address1,
          address2: a.address2,
          city: a.city,
          provinceCode: a.province_code,
          zip: a.zip,
          countryCodeV2: a.country_code,
          phone: a.phone,
        }
      : null,
    shippingLine: o.shippingLine,
    lineItems: (args: { first?: number; after?: string }) =>
      connection(
        o.lines.map((l, i) => ({
          _key: pad(i),
          id: `gid://shopify/LineItem/${l.id}`,
          sku: l.sku,
          name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
          title: l.title,
          quantity: l.quantity,
          currentQuantity: l.currentQuantity,
          requiresShipping: l.requiresShipping,
          originalUnitPriceSet: { shopMoney: { amount: l.price, currencyCode: o.currency }, presentmentMoney: { amount: l.price, currencyCode: o.currency } },
          weight: { unit: 'GRAMS', value: l.grams },
        })),
        args,
        (t) => t._key,
      ),
    fulfillments: (args: { first?: number }) => o.fulfillments.slice(0, args.first ?? undefined).map((f) => gqlFulfillment(f)),
    fulfillmentOrders: (args: { first?: number; after?: string }) =>
      connection(
        o.fulfillmentOrders.map((fo, i) => ({ _key: pad(i), ...gqlFulfillmentOrder(o, fo) })),
        args,
        (t) => t._key,
      ),
  };
}

function gqlFulfillment(f: FakeFulfillment) {
  return {
    id: `gid://shopify/Fulfillment/${f.id}`,
    legacyResourceId: String(f.id),
    status: f.status,
    createdAt: f.createdAt,
    trackingInfo: (args: { first?: number }) => f.tracking.slice(0, args.first ?? undefined),
  };
}

function gqlFulfillmentOrder(o: FakeOrder, fo: FakeFulfillmentOrder) {
  return {
    id: `gid://shopify/FulfillmentOrder/${fo.id}`,
    status: fo.status,
    requestStatus: 'UNSUBMITTED',
    assignedLocation: { name: fo.location.name, countryCode: 'US', location: { id: `gid://shopify/Location/${fo.location.id}`, name: fo.location.name } },
    lineItems: (args: { first?: number; after?: string }) =>
      connection(
        fo.lines.map((l, i) => ({
          _key: pad(i),
          id: `gid://shopify/FulfillmentOrderLineItem/${l.id}`,
          remainingQuantity: l.remaining,
          totalQuantity: l.total,
          lineItem: { id: `gid://shopify/LineItem/${l.lineItemId}`, sku: o.lines.find((x) => x.id === l.lineItemId)?.sku ?? null },
        })),
        args,
        (t) => t._key,
      ),
  };
}

export interface ExecContext {
  shop: FakeShop;
  scopes: string[];
  /** Problems found while executing (a query term the fake does not understand). */
  problems: string[];
}

const rootValue = {
  shop: (_: unknown, ctx: ExecContext) => ({ name: ctx.shop.name, myshopifyDomain: 'fake-goods.myshopify.com' }),
  currentAppInstallation: (_: unknown, ctx: ExecContext) => ({ accessScopes: ctx.scopes.map((handle) => ({ handle, description: handle })) }),
  order: (args: { id: string }, ctx: ExecContext) => {
    const o = ctx.shop.orders.get(gidNumber(args.id, 'Order'));
    return o ? gqlOrder(ctx.shop, o) : null;
  },
  orders: (args: { first?: number; after?: string; query?: string; sortKey?: string; reverse?: boolean }, ctx: ExecContext) => {
    const { since, problem } = parseOrdersQuery(args.query);
    if (problem) ctx.problems.push(problem);
    if (args.sortKey !== 'UPDATED_AT') ctx.problems.push(`orders sortKey ${args.sortKey} (the fake sorts by UPDATED_AT only)`);
    const list = [...ctx.shop.orders.values()]
      .filter((o) => since === null || Date.parse(o.updatedAt) >= since)
      .map((o) => ({ key: `${pad(Date.parse(o.updatedAt))}:${pad(o.id)}`, o }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    const conn = connection(list, args, (t) => t.key);
    const toNode = (t: { o: FakeOrder }) => gqlOrder(ctx.shop, t.o);
    return { ...conn, nodes: conn.nodes.map(toNode), edges: conn.edges.map((e) => ({ cursor: e.cursor, node: toNode(e.node) })) };
  },
  webhookSubscriptions: (args: { first?: number; after?: string }, ctx: ExecContext) =>
    connection(
      [...ctx.shop.webhooks.values()].map((w) => ({
        _key: pad(w.id),
        id: `gid://shopify/WebhookSubscription/${w.id}`,
        topic: w.topic,
        uri: w.uri,
        format: 'JSON',
      })),
      args,
      (t) => t._key,
    ),
  fulfillmentCreate: (args: { fulfillment: Parameters<FakeShop['createFulfillment']>[0] }, ctx: ExecContext) => {
    const r = ctx.shop.createFulfillment(args.fulfillment);
    return { userErrors: r.userErrors, fulfillment: r.fulfillment ? gqlFulfillment(r.fulfillment) : null };
  },
  fulfillmentCancel: (args: { id: string }, ctx: ExecContext) => {
    const r = ctx.shop.cancelFulfillment(args.id);
    return { userErrors: r.userErrors, fulfillment: r.fulfillment ? gqlFulfillment(r.fulfillment) : null };
  },
  webhookSubscriptionCreate: (args: { topic: string; webhookSubscription: { uri?: string | null } }, ctx: ExecContext) => {
    const uri = args.webhookSubscription.uri;
    if (!uri) return { userErrors: [{ field: ['webhookSubscription', 'uri'], message: "Address can't be blank" }], webhookSubscription: null };
    if ([...ctx.shop.webhooks.values()].some((w) => w.topic === args.topic && w.uri === uri)) {
      return {
        userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' }],
        webhookSubscription: null,
      };
    }
    const id = 8_000_000_000_000 + ctx.shop.webhooks.size + 1 + Math.floor(Math.random() * 1000) * 1000;
    ctx.shop.webhooks.set(id, { id, topic: args.topic, uri, createdAt: ctx.shop.stamp() });
    return { userErrors: [], webhookSubscription: { id: `gid://shopify/WebhookSubscription/${id}`, topic: args.topic, uri, format: 'JSON' } };
  },
  webhookSubscriptionDelete: (args: { id: string }, ctx: ExecContext) => {
    const id = gidNumber(args.id, 'WebhookSubscription');
    if (!ctx.shop.webhooks.delete(id))
      return { userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }], deletedWebhookSubscriptionId: null };
    return { userErrors: [], deletedWebhookSubscriptionId: args.id };
  },
};

/** Executes a prepared (valid) document; field resolvers take (args, context) as graphql's default resolver calls them. */
export async function run(schema: GraphQLSchema, prepared: Prepared, variables: unknown, ctx: ExecContext) {
  const result = await execute({
    schema,
    document: prepared.document!,
    rootValue,
    contextValue: ctx,
    variableValues: (variables ?? {}) as Record<string, unknown>,
  });
  return result;
}
