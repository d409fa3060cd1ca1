import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CreatePickupBody, PickupIdParams, PickupListQuery, PickupSchema } from './pickups.schemas.js';
import type { PickupsService } from './pickups.service.js';

const CREATE_DESCRIPTION =
  'Books a carrier pickup (201). 422 `pickup_unavailable`, with the reason in details (`reason`: in_the_past, window_inverted, window_too_short, too_far_ahead, spans_days, sunday, carrier_holiday), ' +
  'for a window in the past, ending before it starts, shorter than 2 hours, more than 10 days ahead, over two days, on a Sunday or on a holiday the carrier observes (the calendar its delivery dates use; days read at the pickup address). ' +
  'A carrier that offers no pickups is 422 `capability_unavailable`. An api account books at the carrier (its refusal 422 carrier_rejected, refused credentials 422 carrier_account_invalid, no answer 503 carrier_unavailable). ' +
  "`cancel_by` is the window start less the carrier's cutoff (USPS none, UPS 2 h, FedEx and DHL Express 1 h). A pickup completes at the window's end, and its labels get their acceptance scan. Send an Idempotency-Key to make retries safe.";

/** Pickups, mounted under /v1 (API key) and /api/admin (the dashboard's End of day page). */
export async function pickupsRoutes(app: App, opts: { surface: 'v1' | 'admin'; service: PickupsService }) {
  const pickups = opts.service;
  const v1 = opts.surface === 'v1';
  app.addSchema(PickupSchema);
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'pickups' : 'admin'];
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);
  const auth = v1 ? [401, 403, 429] : [401, 404];
  const Pickup = Type.Ref(PickupSchema);

  app.post('/pickups', {
    schema: {
      operationId: op('createPickup'),
      summary: 'Schedule a carrier pickup',
      description: CREATE_DESCRIPTION,
      tags,
      security,
      body: CreatePickupBody,
      response: { 201: Pickup, ...errorResponses(...auth, 409, 422) },
    },
    handler: async (request, reply) => reply.code(201).send(await pickups.create(serviceContext(request), request.body)),
  });
  app.get('/pickups', {
    schema: {
      operationId: op('listPickups'),
      summary: 'List pickups, newest first (?status=)',
      tags,
      security,
      querystring: PickupListQuery,
      response: { 200: listResponse(Pickup), ...errorResponses(...auth) },
    },
    handler: async (request) => pickups.list(serviceContext(request), request.query),
  });
  app.get('/pickups/:id', {
    schema: {
      operationId: op('getPickup'),
      summary: 'Read a pickup',
      tags,
      security,
      params: PickupIdParams,
      response: { 200: Pickup, ...errorResponses(...auth, 404) },
    },
    handler: async (request) => pickups.get(serviceContext(request), request.params.id),
  });
  app.post('/pickups/:id/cancel', {
    schema: {
      operationId: op('cancelPickup'),
      summary: 'Cancel a pickup (before its cancel_by)',
      description:
        'After `cancel_by`, or once completed or failed: 409 invalid_state. Cancelling a cancelled pickup answers it as it is. An api account cancels at the carrier first.',
      tags,
      security,
      params: PickupIdParams,
      response: { 200: Pickup, ...errorResponses(...auth, 404, 409, 422) },
    },
    handler: async (request) => pickups.cancel(serviceContext(request), request.params.id),
  });
}
