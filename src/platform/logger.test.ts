import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers/db.js';
import { loggerOptions } from './logger.js';

describe('logger', () => {
  it('keeps a failing statement’s text but not its parameters (customer data) out of the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = pino(loggerOptions('info'), stream);
    const handle = await openTestDatabase();
    try {
      await sql`create temporary table logger_scratch (email text unique)`.execute(handle.db);
      const insert = () => sql`insert into logger_scratch values (${'ada.lovelace@example.com'})`.execute(handle.db);
      await insert();
      const err = await insert().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      log.error({ err }, 'query failed');
    } finally {
      await handle.close();
    }
    const line = lines.join('');
    expect(line).toContain('query failed');
    expect(line).toContain('23505');
    expect(line).not.toContain('ada.lovelace@example.com');
  });
});
