import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import {
  CreateShippingRuleBody,
  EvaluateBody,
  IdParams,
  SelectionSchema,
  ShippingRuleListQuery,
  ShippingRuleSchema,
  UpdateShippingRuleBody,
} from './shipping-rules.schemas.js';
import type { ShippingRulesService } from './shipping-rules.service.js';

/**
 * Shipping rules, mounted twice: under /v1 (API key) and under /api/admin
 * (session; the dashboard's Rules page). Same handlers, distinct operation ids.
 */
export async function shippingRulesRoutes(app: App, opts: { surface: Surface; service: ShippingRulesService }) {
  const rules = opts.service;
  for (const schema of [ShippingRuleSchema, SelectionSchema]) app.addSchema(schema);
  const { security, tags, operationId: op } = surfaceDocs(opts.surface, 'shipping-rules');
  const errors = (...s: number[]) => errorResponses(401, 403, 404, 429, ...s);
  const Rule = Type.Ref(ShippingRuleSchema);

  app.get('/shipping-rules', {
    schema: {
      operationId: op('listShippingRules'),
      summary: 'List shipping rules in the order they apply (priority, then oldest first)',
      tags,
      security,
      querystring: ShippingRuleListQuery,
      response: { 200: listResponse(Rule), ...errors() },
    },
    handler: async (request) => rules.list(serviceContext(request), request.query),
  });

  app.post('/shipping-rules', {
    schema: {
      operationId: op('createShippingRule'),
      summary: 'Create a shipping rule',
      description:
        'Labels bought with `service_code: "auto"` (and admin generate / batches without a service) apply the first enabled rule, by priority, whose `when` matches the order: its `then` filters the rate options of every enabled carrier account, and its strategy picks one. No rule matches → the cheapest. Country codes, carriers and service codes are checked; a change applies to the next purchase.',
      tags,
      security,
      body: CreateShippingRuleBody,
      response: { 201: Rule, ...errors() },
    },
    handler: async (request, reply) => reply.code(201).send(await rules.create(serviceContext(request), request.body)),
  });

  app.post('/shipping-rules/evaluate', {
    schema: {
      operationId: op('evaluateShippingRules'),
      summary: 'The service the rules would choose for an order (or a rate query), and why, without buying',
      description:
        'Rates like a purchase with `service_code: "auto"`; 422 `no_rates` when the matching rule excludes every option (its details name the rule and each option\'s reason).',
      tags,
      security,
      body: EvaluateBody,
      response: { 200: Type.Ref(SelectionSchema), ...errors(422) },
    },
    handler: async (request) => rules.evaluate(serviceContext(request), request.body),
  });

  app.get('/shipping-rules/:id', {
    schema: { operationId: op('getShippingRule'), summary: 'Read a shipping rule', tags, security, params: IdParams, response: { 200: Rule, ...errors() } },
    handler: async (request) => rules.get(serviceContext(request), request.params.id),
  });

  app.patch('/shipping-rules/:id', {
    schema: {
      operationId: op('updateShippingRule'),
      summary: 'Change a shipping rule (name, priority, enabled; when and then are replaced whole)',
      tags,
      security,
      params: IdParams,
      body: UpdateShippingRuleBody,
      response: { 200: Rule, ...errors() },
    },
    handler: async (request) => rules.update(serviceContext(request), request.params.id, request.body),
  });

  app.delete('/shipping-rules/:id', {
    schema: {
      operationId: op('deleteShippingRule'),
      summary: 'Delete a shipping rule (shipments keep the selection it made)',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errors() },
    },
    handler: async (request, reply) => {
      await rules.remove(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
