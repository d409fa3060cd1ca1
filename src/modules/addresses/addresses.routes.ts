import { errorResponses, type App } from '../../platform/http/schemas.js';
import { AddressValidationRequestSchema, AddressValidationResultSchema } from './addresses.schemas.js';
import { validateAddress, validateAddressWithCarrier, type CarrierAddressValidators } from './addresses.service.js';
import { strictBodyValidator } from '../../platform/http/strict-body-validator.js';
import { serviceContext } from '../../platform/http/request-context.js';

/**
 * POST /addresses/validate (registered under /v1 by the app, behind the API-key guard).
 *
 * The body is checked without type coercion (strictBodyValidator instead of the app-wide Ajv,
 * which coerces): a number where a string belongs is a 400, while bad content (unknown
 * country, malformed postal code) is a 200 result with status `invalid`. With
 * `carrier_account_id` the account's carrier validates (`carriers`: the carrier-accounts gateway).
 */
export async function addressesRoutes(app: App, opts: { carriers: CarrierAddressValidators }): Promise<void> {
  app.post(
    '/addresses/validate',
    {
      schema: {
        operationId: 'validateAddress',
        summary: 'Validate and normalise an address',
        description:
          'US addresses are standardised to USPS Publication 28 and checked against ZIP data (city/state corrected); other countries get an ISO country and postal-code format check. ' +
          "With carrier_account_id (an enabled api account whose carrier validates addresses) the carrier's own validator answers instead, on the same result fields plus candidates; source says which validator answered. " +
          "A simulated, disabled, deleted, unknown or another workspace's account is 400 validation_failed on carrier_account_id. The carrier unreachable is 503 carrier_unavailable with Retry-After; " +
          "its credentials refused 422 carrier_account_invalid; the request refused 422 carrier_rejected with the carrier's messages in details.",
        tags: ['addresses'],
        security: [{ apiKey: [] }],
        body: AddressValidationRequestSchema,
        response: { 200: AddressValidationResultSchema, ...errorResponses(400, 401, 422, 429, 503) },
      },
      // Fastify types a route-level compiler by the whole route schema; this one only ever
      // receives the body schema, so the cast is safe.
      validatorCompiler: strictBodyValidator as never,
    },
    async (request) => {
      const { carrier_account_id: accountId, ...address } = request.body;
      if (accountId === undefined) return { ...validateAddress(address), source: { type: 'built_in' as const } };
      return validateAddressWithCarrier(opts.carriers, serviceContext(request), accountId, address, request.id);
    },
  );
}
