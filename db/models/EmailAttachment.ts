import { withId } from './base.ts';
import { integer, tableModel, uuid } from './columns.ts';

const columns = withId({
  emailLogId: uuid,
  position: integer,
  documentId: uuid,
});

/** A stored document sent with one email, in the order the message lists them. */
export class EmailAttachment extends tableModel('email_attachments', columns, { timestamps: false }) {}
