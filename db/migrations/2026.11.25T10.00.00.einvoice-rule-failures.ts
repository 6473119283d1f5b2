import type { Migration } from '../migrate.ts';

/**
 * The rule ids a fee e-invoice broke when it was checked before sending
 * (app/einvoices/outgoing.server.ts, rules in app/einvoices/en16931-rules.server.ts):
 * a document that breaks one is not sent but marked failed, and the ids stay
 * on the row so the e-invoice list shows them in either language (the
 * English `error` text beside them says what each found). Null when the
 * last check passed or none ran; only a failed e-invoice has them.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    ALTER TABLE outgoing_einvoices
      ADD COLUMN rule_failures text[]
        CHECK (rule_failures IS NULL OR (cardinality(rule_failures) BETWEEN 1 AND 200 AND array_position(rule_failures, NULL) IS NULL)),
      ADD CONSTRAINT outgoing_einvoices_rule_failures_failed CHECK (rule_failures IS NULL OR status = 'failed');
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`ALTER TABLE outgoing_einvoices DROP CONSTRAINT outgoing_einvoices_rule_failures_failed, DROP COLUMN rule_failures`);
};
