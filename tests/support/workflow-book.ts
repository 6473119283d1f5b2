import { beforeAll } from 'vitest';
import { getSequelize } from '../../db/connection.ts';
import { ensureReferenceData } from '../../db/reference-data.ts';
import { book, type Book } from '../factories.ts';

/**
 * The set-up of a file whose events start the reference workflows
 * (docs/reference-data.md): their definitions, and the staff who decide. The
 * object is filled before the file's first test. pg-boss's sender, which those
 * workflows start, is stopped by tests/support/database-per-file.ts.
 */
export function referenceWorkflowBook(): Book {
  const staff = {} as Book;
  beforeAll(async () => {
    await ensureReferenceData(getSequelize());
    Object.assign(staff, await book());
  });
  return staff;
}
