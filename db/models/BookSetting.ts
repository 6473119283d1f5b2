import { defaulted, instant, nullable, primaryKey, tableModel, text, uuid } from './columns.ts';

const columns = {
  key: primaryKey(text),
  value: text,
  updatedBy: nullable(uuid),
  updatedAt: defaulted(instant),
};

/** A setting of the factoring book that staff change on /settings (e.g. the ledger adjustment's four-eyes amount). */
export class BookSetting extends tableModel('book_settings', columns, { createdAt: false }) {}
