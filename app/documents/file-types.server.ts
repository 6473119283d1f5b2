import path from 'node:path';
import { apiError } from '../utils/api.server.ts';
import { ALLOWED_EXTENSIONS, MAX_UPLOAD_BYTES, MESSAGES, type AllowedExtension } from './schemas.ts';

/**
 * What an uploaded file really is, read from its first bytes (magic numbers):
 * a name or a declared content type is the sender's claim, the bytes are not
 * (issue #4: an executable renamed .pdf must be refused).
 */
export type DetectedType = {
  mimeType: 'application/pdf' | 'image/png' | 'image/jpeg' | 'application/xml';
  extensions: readonly AllowedExtension[];
};

const SIGNATURES: Array<{ magic: Buffer; type: DetectedType }> = [
  { magic: Buffer.from('%PDF-', 'latin1'), type: { mimeType: 'application/pdf', extensions: ['pdf'] } },
  { magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: { mimeType: 'image/png', extensions: ['png'] } },
  { magic: Buffer.from([0xff, 0xd8, 0xff]), type: { mimeType: 'image/jpeg', extensions: ['jpg', 'jpeg'] } },
];

/** The type the bytes carry, or null for anything else (executables, archives, text, ...). */
export function detectFileType(bytes: Buffer): DetectedType | null {
  for (const { magic, type } of SIGNATURES) {
    if (bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic)) return type;
  }
  return null;
}

/**
 * XML has no magic number: it is UTF-8 text whose first markup is `<?xml` or
 * an element, and (our rule for e-invoices) it declares no DOCTYPE, so no
 * entity can ever be expanded from it.
 */
function detectXml(bytes: Buffer): DetectedType | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (!start.startsWith('<?xml') && !/^<[A-Za-z_]/.test(start)) return null;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  return { mimeType: 'application/xml', extensions: ['xml'] };
}

/** 'Scan.PDF' → 'pdf'; '' when there is none. */
export function extensionOf(fileName: string): string {
  return path.extname(fileName.trim()).slice(1).toLowerCase();
}

export function fileTooLarge(): Response {
  const params = { max: MAX_UPLOAD_BYTES / (1024 * 1024) };
  return apiError(413, MESSAGES.tooLarge, { params, errors: { file: [{ code: MESSAGES.tooLarge, params }] } });
}

export function wrongFileType(): Response {
  return apiError(415, MESSAGES.wrongType, { errors: { file: [MESSAGES.wrongType] } });
}

/**
 * Upload rules (docs/domain-model.md#validation): at most 10 MB (413), one of .pdf .jpg .jpeg .png and
 * content that matches the extension (415). `allowed` narrows the extensions
 * (a KYC type that takes PDF only); `fileName` may be null when the sender
 * gave none (the quarantine PUT), then the bytes alone decide. `declaredMime`
 * is informational: browsers disagree on it (image/jpg, application/octet-stream).
 */
export function checkUpload(args: { bytes: Buffer; fileName: string | null; declaredMime?: string | null; allowed?: readonly AllowedExtension[] }): {
  mimeType: DetectedType['mimeType'];
  extension: AllowedExtension;
} {
  const allowed = args.allowed ?? ALLOWED_EXTENSIONS;
  if (args.bytes.length > MAX_UPLOAD_BYTES) throw fileTooLarge();
  const detected = detectFileType(args.bytes) ?? (allowed.includes('xml') ? detectXml(args.bytes) : null);
  if (!detected) throw wrongFileType();
  if (args.fileName === null) {
    const extension = detected.extensions.find((ext) => allowed.includes(ext));
    if (!extension) throw wrongFileType();
    return { mimeType: detected.mimeType, extension };
  }
  const extension = extensionOf(args.fileName) as AllowedExtension;
  if (!allowed.includes(extension) || !detected.extensions.includes(extension)) throw wrongFileType();
  return { mimeType: detected.mimeType, extension };
}

/** What may be shown inline by the browser: only the verified types (never HTML or SVG). */
export function isInlineViewable(mimeType: string): boolean {
  return mimeType === 'application/pdf' || mimeType === 'image/png' || mimeType === 'image/jpeg';
}

const EXTENSION_FOR: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'application/xml': 'xml' };

/**
 * A download name without path separators, control or quote characters, at
 * most 150 characters, with the extension of its real type (so a name cannot
 * make a PDF look like something else).
 */
export function safeFileName(name: string, mimeType: string): string {
  const extension = EXTENSION_FOR[mimeType];
  let base = name
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|;]+/g, '_')
    // A lone UTF-16 surrogate is no character; stored, it would turn into U+FFFD.
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const current = extensionOf(base);
  if (current && (current === extension || (extension === 'jpg' && current === 'jpeg'))) {
    base = base.slice(0, base.length - current.length - 1);
  }
  // Cutting may split a surrogate pair: drop a high half left at the end.
  base =
    base
      .slice(0, 150)
      .replace(/[\uD800-\uDBFF]$/, '')
      .trim() || 'document';
  return extension ? `${base}.${extension}` : base;
}

/**
 * `attachment` or `inline` with an ASCII fallback `filename=` and the exact
 * UTF-8 name in RFC 5987 `filename*=` (Croatian letters survive).
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
