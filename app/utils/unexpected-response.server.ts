import { STATUS_CODES } from 'node:http';
import { isDatabaseUnavailable, isLockNotAvailable, isRefusedValue } from '../db.server.ts';
import { resources } from '../i18n.ts';
import { languageFromRequest } from '../i18next.server.ts';
import { apiError, RETRY_AFTER_SECONDS, unexpectedErrorResponse } from './api.server.ts';

/**
 * What the web process sends when a request ended in an error no route turned
 * into a refusal (server.ts, with the error entry.server.tsx's handleError
 * kept): under /api the JSON error shape instead of Remix's plain-text
 * 'Unexpected Server Error' (503 with Retry-After while the database is away);
 * for a page, a 503 page while the database is away or a lock stayed held past
 * the web process's bound (the change was not made), and a 400 page when
 * PostgreSQL refused a value a form sent (a schema should have: this is the
 * net under them). Anything else goes out as Remix rendered it.
 */
export function finishResponse(request: Request, response: Response, error: unknown): Response {
  const path = new URL(request.url).pathname;
  const api = path === '/api' || path.startsWith('/api/');
  // Remix's own refusals (a method a route does not serve) say 'Unexpected Server Error' whatever the status.
  if (api && response.status < 500 && response.headers.has('X-Remix-Error')) {
    return apiError(response.status, 'errors.api.httpStatus', { params: { status: response.status, reason: STATUS_CODES[response.status] ?? 'Request refused' } });
  }
  if (response.status < 500) return response;
  if (api) {
    if (error === undefined && isJson(response)) return response;
    return unexpectedErrorResponse(error);
  }
  if (isDatabaseUnavailable(error)) return unavailablePage(request);
  if (isLockNotAvailable(error)) return busyPage(request);
  if (isRefusedValue(error)) return badRequestPage(request);
  return response;
}

function isJson(response: Response): boolean {
  return /\bapplication\/json\b/.test(response.headers.get('Content-Type') ?? '') && !response.headers.has('X-Remix-Error');
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A page of its own, built without the database (the shell's loader needs
 * it): one main landmark and one h1 in the visitor's language.
 */
function plainPage(request: Request, status: number, text: { title: string; description: string }, headers: Record<string, string> = {}): Response {
  const language = languageFromRequest(request);
  const html = `<!DOCTYPE html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(text.title)} · FinFlow</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;min-height:100vh;place-items:center}main{max-width:32rem;padding:2rem;text-align:center}</style></head>
<body><main><h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text.description)}</p></main></body>
</html>`;
  return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });
}

/** 503 with Retry-After, telling browsers and proxies to come back shortly. */
export function unavailablePage(request: Request): Response {
  const { unavailableTitle, unavailableDescription } = resources[languageFromRequest(request)].common.error;
  return plainPage(request, 503, { title: unavailableTitle, description: unavailableDescription }, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/** 503 with Retry-After: a change waited past the web process's bound for another one on the same record, and was not made. */
function busyPage(request: Request): Response {
  const { busyTitle, busyDescription } = resources[languageFromRequest(request)].common.error;
  return plainPage(request, 503, { title: busyTitle, description: busyDescription }, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

export function badRequestPage(request: Request): Response {
  const { badRequestTitle, badRequestDescription } = resources[languageFromRequest(request)].common.error;
  return plainPage(request, 400, { title: badRequestTitle, description: badRequestDescription });
}
