import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorResponseSchema } from '../../platform/http/schemas.js';
import { CUSTOMS_INVALID_EXAMPLE, CUSTOMS_REQUIRED_EXAMPLE } from './customs.examples.js';

/**
 * The 422 of a route that buys a label, with the customs refusals named and shown (the other
 * 422 codes of a purchase stay in the route's description).
 */
export function purchaseUnprocessableResponse(others: string): TSchema {
  // The Error body inline (a $ref would lose these examples to the generic 422 one).
  return Type.Object(ErrorResponseSchema.properties, {
    title: 'Error',
    description:
      `Unprocessable: ${others}; customs_required (the parcel crosses a border or goes to a US military address, no customs was given and the order's ` +
      'line items cannot make one: one detail per missing line field); customs_invalid (the declaration breaks a customs rule: one detail per problem, ' +
      'e.g. customs.items[0].description). Nothing is bought.',
    examples: [CUSTOMS_INVALID_EXAMPLE, CUSTOMS_REQUIRED_EXAMPLE],
  });
}
