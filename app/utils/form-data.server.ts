import { MaxPartSizeExceededError, unstable_parseMultipartFormData, type UploadHandler } from '@remix-run/node';
import { API_ERRORS, apiError } from './api.server.ts';
import { INPUT_ERRORS, isSingleLineText } from './validation.ts';

/**
 * Reading a form post without letting a bad body become a 500. `Request.formData()`
 * and Remix's multipart parser throw a TypeError for a JSON or text body, a
 * multipart body without its boundary or cut off in the middle; here that is
 * a 415 (another content type) or a 400 (a broken body), thrown as the API's
 * error Response so pages and resource routes answer it like any refusal.
 */
export const FORM_MESSAGES = {
  wrongType: 'errors.form.wrongType',
  malformed: 'errors.form.malformed',
} as const;

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

function mediaType(request: Request): string {
  return (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
}

/** 415 unless the body is a form (urlencoded or multipart). A bodiless post counts as an empty form. */
export function assertFormBody(request: Request): void {
  if (request.body === null && !request.headers.get('Content-Type')) return;
  if (!FORM_TYPES.includes(mediaType(request))) throw apiError(415, FORM_MESSAGES.wrongType);
}

/** `request.formData()` with 415 for another content type and 400 for a body that does not parse. */
export async function readFormData(request: Request): Promise<FormData> {
  assertFormBody(request);
  if (request.body === null) return new FormData();
  try {
    return await request.formData();
  } catch {
    throw apiError(400, FORM_MESSAGES.malformed);
  }
}

/**
 * Remix's streaming multipart parser with the same answers: 415 for another
 * content type, 400 for a broken body, 413 when a part is larger than the
 * memory handler allows. A Response the upload handler throws (its own 413 or
 * 400) goes through unchanged.
 */
export async function readMultipartFormData(request: Request, handler: UploadHandler): Promise<FormData> {
  if (mediaType(request) !== 'multipart/form-data') throw apiError(415, FORM_MESSAGES.wrongType);
  try {
    return await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof MaxPartSizeExceededError) throw apiError(413, API_ERRORS.tooLarge, { errors: { [error.field]: [API_ERRORS.tooLarge] } });
    throw apiError(400, FORM_MESSAGES.malformed);
  }
}

const FILE_NAME_TOO_LONG = 'errors.form.fileNameTooLong';

/**
 * A file name from a multipart part or a query parameter: refused (400 on
 * `field`) when it holds control characters or broken Unicode, or is longer
 * than the 255 characters a stored name may have.
 */
export function checkedFileName(name: string | null | undefined, field = 'fileName'): string | null {
  if (!name) return null;
  if (!isSingleLineText(name)) throw apiError(400, INPUT_ERRORS.invalidCharacters, { errors: { [field]: [INPUT_ERRORS.invalidCharacters] } });
  if (name.length > 255) throw apiError(400, FILE_NAME_TOO_LONG, { errors: { [field]: [FILE_NAME_TOO_LONG] } });
  return name;
}
