import { errorResponses, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { strictBodyValidator } from '../../platform/http/strict-body-validator.js';
import { RateQueryBodySchema, RateQueryResponseSchema, type RateQuery, type RateQueryResponse } from './rates.schemas.js';
import { isPackagedParcel, type PackagesService } from '../packages/index.js';
import { checkParcelsChoice, piecesOf } from './rates.parcels.js';
import { validationError } from '../../platform/errors.js';
import { checkRateEnds, quoteRatesJson, warmRateData } from './rates.service.js';
import type { RateSource } from './rates.sources.js';
import type { Scope } from '../../platform/context.js';
import { serviceContext } from '../../platform/http/request-context.js';

/** Where the rate-shop finds the accounts to ask (the carrier-accounts module's gateway). */
export interface RateSourceProvider {
  rateSources(scope: Scope, ids?: readonly string[]): RateSource[] | Promise<RateSource[]>;
}

/**
 * POST /rates/query, registered under /v1 (API-key guard) and under /api/admin (session guard,
 * for the dashboard's rate calculator; the browser holds no API key).
 *
 * The body is checked without type coercion (strictBodyValidator instead of the app-wide Ajv,
 * which coerces "16" into 16): wrong types are a 400 naming the field.
 */
/** Where a query's `location_id` (or the default location) is found. */
export interface RateOriginProvider {
  originFor(scope: Scope, id: string | undefined): Promise<{ address: RateQuery['ship_from']; timezone: string; cutoff_minutes: number } | null>;
}

export async function ratesRoutes(
  app: App,
  opts: { surface?: Surface; gateway: RateSourceProvider; packages: Pick<PackagesService, 'resolveParcel'>; locations: RateOriginProvider },
): Promise<void> {
  const { v1, security, tags, operationId } = surfaceDocs(opts.surface ?? 'v1', 'rates');
  const { carriers } = app.deps;
  // Load the ZIP data, ZIP3 centroids and holiday calendars (~0.6 s of CPU) once the server
  // listens and has answered its first health checks, rather than at import or during start-up
  // (keeps a restart quick) or on the first rate request (keeps its latency low).
  if (v1) {
    app.addHook('onListen', async () => {
      setTimeout(() => warmRateData(), 1000).unref();
    });
  }

  app.post(
    '/rates/query',
    {
      schema: {
        operationId: operationId('queryRates'),
        summary: v1 ? 'Compare carrier rates for a parcel' : 'Compare carrier rates for a parcel (dashboard rate calculator)',
        description:
          'Asks every enabled carrier account of the workspace and environment at once (or those in `carrier_accounts`). One option per account and service that can carry the parcel, sorted by price, with the account (`carrier_account_id`), zone, billable and DIM weight, surcharges, a delivery promise and tags. Services that cannot carry it are listed under `unavailable`; an account that fails (timeout, 5xx, refused credentials) is a `messages` entry and never fails the query. When no service can carry the parcel and no account failed, 422 `no_rates`.',
        tags,
        security,
        body: RateQueryBodySchema,
        response: { 200: RateQueryResponseSchema, ...errorResponses(400, 401, 422, 429) },
      },
      // Fastify types a route-level compiler by the whole route schema; this one only ever
      // receives the body schema, so the cast is safe.
      validatorCompiler: strictBodyValidator as never,
      config: { bodyChecks: (body: unknown) => [...checkRateEnds(body), ...checkParcelsChoice(body)] },
    },
    (request, reply) => {
      // The route's own response serializer (the schema above); the JSON text is sent as is.
      const serialize = reply.getSerializationFunction('200') as (response: RateQueryResponse) => string;
      // When the request arrived (Fastify times each from its start): the carriers' deadline counts from here.
      const startedAt = Date.now() - reply.elapsedTime;
      const shape = checkParcelsChoice(request.body);
      if (shape.length > 0) {
        reply.send(validationError(shape) as never);
        return;
      }
      const scope = serviceContext(request);
      const sources = opts.gateway.rateSources(scope, request.body.carrier_accounts);
      const { location_id: locationId, ship_from: shipFrom } = request.body;
      const pieces = piecesOf(request.body);
      if (locationId !== undefined && shipFrom !== undefined) {
        reply.send(validationError([{ field: 'location_id', message: 'give location_id or ship_from, not both' }]) as never);
        return;
      }
      // A packaged parcel is priced from what its package resolves to, and a location's query
      // from its address and clock (either can change, so the body's text is no quote-cache key).
      const quote = (resolved: RateSource[], query: RateQuery, bodyText: string | undefined, origin?: { timezone: string; cutoff_minutes: number }) =>
        quoteRatesJson(
          query,
          { carriers, sources: resolved, now: app.deps.now(), bodyText, requestId: request.id, startedAt, ...(origin ? { origin } : {}) },
          serialize,
        );
      const plain = shipFrom !== undefined && request.body.parcels === undefined && !isPackagedParcel(request.body.parcel);
      const json = plain
        ? Array.isArray(sources)
          ? quote(sources, request.body as RateQuery, request.bodyText)
          : sources.then((resolved) => quote(resolved, request.body as RateQuery, request.bodyText))
        : Promise.all([
            sources,
            Promise.all(
              pieces.map((p, i) => (isPackagedParcel(p) ? opts.packages.resolveParcel(scope, p, request.body.parcels ? `parcels[${i}]` : 'parcel') : p)),
            ),
            shipFrom === undefined ? opts.locations.originFor(scope, locationId) : null,
          ]).then(([resolved, dims, origin]) => {
            if (shipFrom === undefined && !origin)
              throw validationError([{ field: 'ship_from', message: 'is required (or give location_id, or make a default location)' }]);
            const { location_id: _location, parcels: _parcels, ...rest } = request.body;
            // A multi-piece query is quoted with its first piece as `parcel` and every piece in `parcels`.
            const query = {
              ...rest,
              parcel: dims[0],
              ...(dims.length > 1 ? { parcels: dims } : {}),
              ship_from: origin ? origin.address : shipFrom!,
            } as RateQuery;
            return quote(resolved, query, undefined, origin ? { timezone: origin.timezone, cutoff_minutes: origin.cutoff_minutes } : undefined);
          });
      reply.type('application/json; charset=utf-8');
      // A remembered quote is answered synchronously; a new one when its carriers have priced it.
      // (reply.send of an error hands it to the error handler, as a thrown one would be.)
      if (typeof json === 'string') reply.send(json as never);
      else
        json.then(
          (text) => reply.send(text as never),
          (err: Error) => reply.send(err as never),
        );
    },
  );
}
