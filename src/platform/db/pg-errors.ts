import { AppError } from '../errors.js';

/** Translate Postgres errors once: unique violation → 409 conflict; FK → 400 on the field. */
export function mapDbError(err: unknown, fieldForFk = 'id'): unknown {
  const code = (err as { code?: string } | null)?.code;
  if (code === '23505') return new AppError('conflict', 'A resource with these values already exists.', { cause: err });
  if (code === '23503') {
    return new AppError('validation_failed', 'A referenced resource does not exist.', {
      details: [{ field: fieldForFk, message: 'does not exist' }],
      cause: err,
    });
  }
  return err;
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}
