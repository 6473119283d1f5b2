import { contentDisposition } from './file-types.server.ts';

/**
 * A stored file as an HTTP response: its verified content type, a safe
 * Content-Disposition. (X-Content-Type-Options: nosniff, so the browser never
 * guesses another type, is set on every response by server.ts.)
 * Only verified PDF/PNG/JPEG bytes are ever stored, so nothing served here
 * can run script on our origin. (No CSP sandbox: Chromium then refuses to
 * render PDFs.)
 */
export function fileResponse(file: { bytes: Buffer; mimeType: string; fileName: string }, kind: 'attachment' | 'inline'): Response {
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: {
      'Content-Type': file.mimeType,
      'Content-Length': String(file.bytes.length),
      'Content-Disposition': contentDisposition(kind, file.fileName),
      'Cache-Control': 'private, no-store',
    },
  });
}
