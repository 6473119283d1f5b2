import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { bigint, boolean, char, defaulted, instant, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { DOCUMENT_ENTITY_TYPES, DOCUMENT_TYPES, KYC_DOCUMENT_TYPES, SIGNATURE_STATUSES } from './enums.ts';
import type { User } from './User.ts';

const columns = withTimestamps({
  name: text,
  type: oneOf(DOCUMENT_TYPES),
  kycType: nullable(oneOf(KYC_DOCUMENT_TYPES)),
  mimeType: text,
  /** Bytes. */
  size: bigint,
  storageKey: text,
  /** SHA-256 of the bytes, lowercase hex. */
  checksum: char(64),
  /** Set together with entityId, or neither. */
  entityType: nullable(oneOf(DOCUMENT_ENTITY_TYPES)),
  entityId: nullable(uuid),
  uploadedBy: nullable(uuid),
  signatureRequired: defaulted(boolean),
  signatureStatus: nullable(oneOf(SIGNATURE_STATUSES)),
  signedAt: nullable(instant),
  signedBy: nullable(uuid),
});

/** An uploaded file; the bytes live in the object store under storageKey. */
export class Document extends tableModel('documents', columns) {
  declare uploader?: NonAttribute<User | null>;
  declare signer?: NonAttribute<User | null>;
}
