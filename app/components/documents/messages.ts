import { MAX_UPLOAD_BYTES, MESSAGES } from '~/documents/schemas.ts';

/** Server messages of the document calls (schemas.ts MESSAGES) → their texts in the chosen language. */
const KEYS: Record<string, string> = {
  [MESSAGES.required]: 'documents.messages.required',
  [MESSAGES.tooLarge]: 'documents.messages.tooLarge',
  [MESSAGES.wrongType]: 'documents.messages.wrongType',
  [MESSAGES.entityNotFound]: 'documents.messages.entityNotFound',
  [MESSAGES.notPending]: 'documents.messages.notPending',
  [MESSAGES.signatureNotRequired]: 'documents.messages.signatureNotRequired',
  [MESSAGES.notFound]: 'documents.messages.notFound',
  [MESSAGES.tooLong]: 'documents.messages.tooLong',
};

export function documentMessage(t: (key: string, options?: Record<string, unknown>) => string, message: string): string {
  const key = KEYS[message];
  return key ? t(key, { max: MAX_UPLOAD_BYTES / (1024 * 1024) }) : message;
}
