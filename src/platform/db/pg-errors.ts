import { AppError } from '../errors.js';

// SQLSTATE codes (both drivers put them on `err.code`).
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

export interface DbErrorWording {
  /** A unique violation: which field collided, and the message (default: a generic one). */
  unique?: { field: string; message?: string; detail?: string };
  /** A foreign-key violation: the field that names the missing resource (default `id`). */
  foreignKey?: { field: string };
}

/** A unique violation (23505) from either driver. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === UNIQUE_VIOLATION;
}

/**
 * The one translation of Postgres errors into the catalogue: unique violation → 409 conflict,
 * foreign-key violation → 400 validation_failed on the field. Anything else comes back as it
 * was, so a caller writes `catch (err) { throw mapDbError(err, …) }`.
 */
export function mapDbError(err: unknown, wording: DbErrorWording = {}): unknown {
  const code = (err as { code?: string } | null)?.code;
  if (code === UNIQUE_VIOLATION) {
    const { field, message, detail } = wording.unique ?? { field: 'id' };
    return new AppError('conflict', message ?? 'A resource with these values already exists.', {
      details: [{ field, message: detail ?? 'is already registered' }],
      cause: err,
    });
  }
  if (code === FOREIGN_KEY_VIOLATION) {
    return new AppError('validation_failed', 'A referenced resource does not exist.', {
      details: [{ field: wording.foreignKey?.field ?? 'id', message: 'does not exist' }],
      cause: err,
    });
  }
  return err;
}
