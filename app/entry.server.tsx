import { type EntryContext, type HandleErrorFunction } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { I18nextProvider } from 'react-i18next';
import { languageFromRequest, renderingI18n } from './i18next.server.ts';
import { renderDocument } from './utils/document-bytes.server.ts';
import { logUnexpectedError, rememberUnexpectedError } from './utils/api.server.ts';

const ABORT_DELAY_MS = 5_000;

/**
 * Every error a loader, action or render threw that was not a Response: kept
 * on the load context so that server.ts answers /api with the JSON error shape
 * (503 with Retry-After while the database is away) and pages with a 503 page,
 * and logged once (a database outage as one line, not a stack). Errors of a
 * request the client abandoned, and Remix's own 404/405 answers, are not logged.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error)) return;
  rememberUnexpectedError(context, error);
  logUnexpectedError(error, request);
};

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const instance = await renderingI18n(languageFromRequest(request));
  // The whole page in one Buffer (app/utils/document-bytes.server.ts): no page suspends, so nothing is gained by streaming it.
  const { body, failed } = await renderDocument(
    <I18nextProvider i18n={instance}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />
    </I18nextProvider>,
    { timeoutMs: ABORT_DELAY_MS },
  );
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  responseHeaders.set('Content-Length', String(body.byteLength));
  return new Response(body, { headers: responseHeaders, status: failed ? 500 : responseStatusCode });
}
