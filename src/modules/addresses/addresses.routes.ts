import { errorResponses, type App } from '../../platform/http/schemas.js';
import { AddressSchema, AddressValidationResultSchema } from './addresses.schemas.js';
import { validateAddress } from './addresses.service.js';
import { strictBodyValidator } from '../../platform/http/strict-body-validator.js';

/**
 * POST /addresses/validate (registered under /v1 by the app, behind the API-key guard).
 *
 * The body is checked without type coercion (strictBodyValidator instead of the app-wide Ajv,
 * which coerces): a number where a string belongs is a 400, while bad content (unknown
 * country, malformed postal code) is a 200 result with status `invalid`.
 */
export async function addressesRoutes(app: App): Promise<void> {
  app.post(
    '/addresses/validate',
    {
      schema: {
        operationId: 'validateAddress',
        summary: 'Validate and normalise an address',
        description:
          'US addresses are standardised to USPS Publication 28 and checked against ZIP data (city/state corrected); other countries get an ISO country and postal-code format check.',
        tags: ['addresses'],
        security: [{ apiKey: [] }],
        body: AddressSchema,
        response: { 200: AddressValidationResultSchema, ...errorResponses(400, 401, 429) },
      },
      // Fastify types a route-level compiler by the whole route schema; this one only ever
      // receives the body schema, so the cast is safe.
      validatorCompiler: strictBodyValidator as never,
    },
    async (request) => validateAddress(request.body),
  );
}
