import * as z from 'zod';
import { DOCUMENT_ENTITY_TYPES, DOCUMENT_TYPES, KYC_DOCUMENT_TYPES } from '../../db/models/enums.ts';
import { plainText } from '../utils/validation.ts';

/**
 * Payloads of the document calls and the /documents upload form (docs/domain-model.md#validation,
 * docs/api.md). Shared by the browser and the server, so no server imports.
 * Messages are the spec's texts; the page translates them.
 */
export { DOCUMENT_ENTITY_TYPES, DOCUMENT_TYPES, KYC_DOCUMENT_TYPES };
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export type KycType = (typeof KYC_DOCUMENT_TYPES)[number];
export type DocumentEntityType = (typeof DOCUMENT_ENTITY_TYPES)[number];

/** docs/domain-model.md#validation: 10 MB (10485760 bytes), four extensions. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ALLOWED_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png'] as const;
/** 'xml' only where a caller asks for it: the UBL e-invoice kept as an invoice's document. */
export type AllowedExtension = (typeof ALLOWED_EXTENSIONS)[number] | 'xml';
/** The file picker's accept attribute (docs/domain-model.md#validation). */
export const FILE_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

export const DOCUMENT_TABS = ['all', 'signatures', 'recent', 'invoice', 'contract'] as const;
export type DocumentTab = (typeof DOCUMENT_TABS)[number];
/** docs/screens.md: 'recent' means created within the last 7 days. */
export const RECENT_DAYS = 7;

/** Refusal codes of the document calls (docs/decisions/013-error-codes.md); their en texts are the API's English. */
export const MESSAGES = {
  required: 'documents.validation.required',
  tooLarge: 'documents.validation.tooLarge',
  wrongType: 'documents.validation.wrongType',
  notFound: 'documents.validation.notFound',
  signatureNotRequired: 'documents.validation.signatureNotRequired',
  notPending: 'documents.validation.notPending',
  entityNotFound: 'documents.validation.entityNotFound',
  tooLong: 'documents.validation.tooLong',
  invalidUpload: 'documents.validation.invalidUpload',
  invalidValue: 'documents.validation.invalidValue',
  booleanInvalid: 'documents.validation.booleanInvalid',
  sizeInvalid: 'documents.validation.sizeInvalid',
  kycTypeInvalid: 'documents.validation.kycTypeInvalid',
  entityTypeInvalid: 'documents.validation.entityTypeInvalid',
  fileMissing: 'documents.validation.fileMissing',
  checksumMismatch: 'documents.validation.checksumMismatch',
  uploadAddressInvalid: 'documents.validation.uploadAddressInvalid',
  alreadyUploaded: 'documents.validation.alreadyUploaded',
  notInline: 'documents.validation.notInline',
  fileDataBase64: 'documents.validation.fileDataBase64',
} as const;

/** Missing, null and non-strings read as '' so the "required" message wins. */
const text = z.preprocess((value) => (typeof value === 'string' ? value : ''), z.string());
const requiredName = text.pipe(plainText(z.string().trim().min(1, MESSAGES.required).max(255, MESSAGES.tooLong)));
/**
 * An optional field: missing, null and blank read as absent; anything else is
 * checked by the schema it is piped into, so a present but wrong value (a
 * number, an unknown type) is refused, not dropped.
 */
const optionalText = z.preprocess(
  (value) => (value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? undefined : typeof value === 'string' ? value.trim() : value),
  z.string(MESSAGES.invalidValue).optional(),
);
/**
 * A checkbox or a JSON boolean: true/false, 'true'/'false', the form's 'on' and
 * '1'/'0'; missing, null or '' is false (an unchecked box posts nothing).
 * Anything else ('yes') is refused, never read as false.
 */
const BOOLEAN_VALUES = new Map<unknown, boolean>([
  [true, true],
  ['true', true],
  ['on', true],
  ['1', true],
  [false, false],
  ['false', false],
  ['0', false],
  ['', false],
  [null, false],
  [undefined, false],
]);
const booleanish = z.preprocess((value) => (BOOLEAN_VALUES.has(value) ? BOOLEAN_VALUES.get(value) : value), z.boolean(MESSAGES.booleanInvalid));

/** The link to a client, customer or invoice: both or neither (the entity id is enabled only after a type is chosen). */
const entityFields = {
  entityType: optionalText.pipe(z.enum(DOCUMENT_ENTITY_TYPES, MESSAGES.required).optional()),
  entityId: optionalText.pipe(z.uuid('Invalid id').optional()),
};
function entityPair<T extends { entityType?: string; entityId?: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.entityType && !value.entityId) ctx.addIssue({ code: 'custom', path: ['entityId'], message: MESSAGES.required });
  if (value.entityId && !value.entityType) ctx.addIssue({ code: 'custom', path: ['entityType'], message: MESSAGES.required });
}

/** The /documents upload form (multipart; the file travels beside these fields). */
export const uploadFormSchema = z
  .object({
    name: requiredName,
    type: text.pipe(z.enum(DOCUMENT_TYPES, MESSAGES.required)),
    ...entityFields,
    signatureRequired: booleanish,
  })
  .superRefine(entityPair);

/** POST /api/documents/upload: the form's fields plus fileData (base64, optionally a data: URL). */
export const uploadApiSchema = z
  .object({
    name: requiredName,
    type: text.pipe(z.enum(DOCUMENT_TYPES, MESSAGES.required)),
    fileData: text.pipe(z.string().min(1, MESSAGES.required)),
    fileName: optionalText.pipe(plainText(z.string().max(255, MESSAGES.tooLong)).optional()),
    ...entityFields,
    signatureRequired: booleanish,
  })
  .superRefine(entityPair);

/**
 * POST /api/documents, the registration document record (docs/domain-model.md): fileUrl is
 * the uploadURL (or object id) that POST /api/objects/upload handed out.
 * size and mimeType are the browser's claims; the stored object's own values win.
 */
export const registrationRecordSchema = z.object({
  name: requiredName,
  type: text.pipe(z.enum(DOCUMENT_TYPES, MESSAGES.required)),
  kycType: optionalText.pipe(z.enum(KYC_DOCUMENT_TYPES).optional()),
  entityType: text.pipe(z.enum(DOCUMENT_ENTITY_TYPES, MESSAGES.required)),
  entityId: text.pipe(z.uuid(MESSAGES.required)),
  fileUrl: text.pipe(plainText(z.string().min(1, MESSAGES.required).max(2000, MESSAGES.invalidUpload))),
  size: z.preprocess(
    (value) => (value === null || value === '' ? undefined : value),
    z
      .union([z.number(), z.string().trim().regex(/^\d+$/, MESSAGES.sizeInvalid)], MESSAGES.sizeInvalid)
      .transform(Number)
      .pipe(z.number().int(MESSAGES.sizeInvalid).min(0, MESSAGES.sizeInvalid).max(Number.MAX_SAFE_INTEGER, MESSAGES.sizeInvalid))
      .optional(),
  ),
  mimeType: optionalText.pipe(plainText(z.string().max(255, MESSAGES.tooLong)).optional()),
});

export const listQuerySchema = z.object({
  tab: z.enum(DOCUMENT_TABS).catch('all'),
  type: z.enum(DOCUMENT_TYPES).optional().catch(undefined),
});

/**
 * The /documents page's url-encoded posts, told apart by their `intent` (the
 * upload is a multipart post, read by its own form schema). The sign form's
 * `id` is checked by the domain function.
 */
export const documentPageIntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('sign'), id: z.string() })]);
