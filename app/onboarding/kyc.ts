import { KYC_DOCUMENT_TYPES, type DocumentType, type KycDocumentType } from '../../db/models/enums.ts';

/**
 * The KYC documents an applicant uploads: their types and upload rules
 * (docs/domain-model.md#validation). Shared by the browser (hints, accept list,
 * early checks) and the server (the authority). No server imports here.
 */
export { KYC_DOCUMENT_TYPES, type KycDocumentType };

export const KYC_MAX_FILE_BYTES = 10 * 1024 * 1024; // 10485760, docs/domain-model.md#validation
export const KYC_MAX_FILE_MB = KYC_MAX_FILE_BYTES / (1024 * 1024);
export const KYC_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png'] as const;
export const KYC_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
/** For `<input accept>`: extensions and types, so every browser's picker filters. */
export const KYC_ACCEPT = [...KYC_EXTENSIONS.map((ext) => `.${ext}`), ...KYC_MIME_TYPES].join(',');
/** Shown with a wrong-type error (docs/domain-model.md#validation). */
export const KYC_ALLOWED_LABEL = KYC_EXTENSIONS.map((ext) => ext.toUpperCase()).join(', ');

/** docs/domain-model.md: the nearest Document `type` of each KYC type; the KYC type itself is kept in `kycType`. */
export const DOCUMENT_TYPE_OF_KYC: Record<KycDocumentType, DocumentType> = {
  company_registration: 'kyc_document',
  tax_certificate: 'kyc_document',
  bank_statement: 'bank_statement',
  financial_statements: 'financial_statement',
  director_id: 'id_document',
};

export function isKycType(value: unknown): value is KycDocumentType {
  return typeof value === 'string' && (KYC_DOCUMENT_TYPES as readonly string[]).includes(value);
}

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export function hasAllowedExtension(fileName: string): boolean {
  return (KYC_EXTENSIONS as readonly string[]).includes(extensionOf(fileName));
}

/** The types not attached yet, in the spec's order (shown to the applicant as still missing). */
export function missingKycTypes(attached: Iterable<string>): KycDocumentType[] {
  const have = new Set(attached);
  return KYC_DOCUMENT_TYPES.filter((type) => !have.has(type));
}

/** Human file size with the spec's units (B, KB, MB, GB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
