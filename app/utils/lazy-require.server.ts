import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start: mjml,
 * pdfkit, bwip-js, qrcode and nodemailer together took about a second of the
 * web process's start (they serve e-mails, PDFs and the authenticator's QR
 * code, a few requests a day), against the start-to-/healthz target of
 * docs/benchmarks.md. Types come from a type-only import beside the call.
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
