import { AppError, type ErrorDetail } from '../../platform/errors.js';

/** 422 customs_required: the parcel needs a declaration and the order's lines cannot make one. */
export function customsRequired(details: ErrorDetail[]): AppError {
  return new AppError(
    'customs_required',
    "This parcel crosses a border (or goes to a US military address): it needs a customs declaration, and the order's line items cannot make one. Send customs, or complete the line items.",
    { details },
  );
}

/** 422 customs_invalid: one detail per problem of the declaration. */
export function customsInvalid(details: ErrorDetail[]): AppError {
  return new AppError('customs_invalid', `The customs declaration is invalid: ${details.length} problem${details.length === 1 ? '' : 's'}.`, { details });
}
