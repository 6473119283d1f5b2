import { DataTypes, type CreationOptional, type NonAttribute, type Sequelize } from 'sequelize';
import { TimestampedModel, tableOptions, withTimestamps } from './base.ts';
import type { DocumentEntityType, DocumentType, KycDocumentType, SignatureStatus } from './enums.ts';
import type { User } from './User.ts';

/** An uploaded file; the bytes live in the object store under storageKey. */
export class Document extends TimestampedModel<Document> {
  declare name: string;
  declare type: DocumentType;
  declare kycType: KycDocumentType | null;
  declare mimeType: string;
  /** Bytes. */
  declare size: number;
  declare storageKey: string;
  /** SHA-256 of the bytes, lowercase hex. */
  declare checksum: string;
  /** Set together with entityId, or neither. */
  declare entityType: DocumentEntityType | null;
  declare entityId: string | null;
  declare uploadedBy: string | null;
  declare signatureRequired: CreationOptional<boolean>;
  declare signatureStatus: SignatureStatus | null;
  declare signedAt: Date | null;
  declare signedBy: string | null;

  declare uploader?: NonAttribute<User | null>;
  declare signer?: NonAttribute<User | null>;

  static initModel(sequelize: Sequelize) {
    return Document.init(
      withTimestamps({
        name: DataTypes.TEXT,
        type: DataTypes.TEXT,
        kycType: DataTypes.TEXT,
        mimeType: DataTypes.TEXT,
        size: DataTypes.BIGINT,
        storageKey: DataTypes.TEXT,
        checksum: DataTypes.CHAR(64),
        entityType: DataTypes.TEXT,
        entityId: DataTypes.UUID,
        uploadedBy: DataTypes.UUID,
        signatureRequired: DataTypes.BOOLEAN,
        signatureStatus: DataTypes.TEXT,
        signedAt: DataTypes.DATE,
        signedBy: DataTypes.UUID,
      }),
      tableOptions(sequelize, 'documents'),
    );
  }
}
