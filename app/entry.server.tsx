import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { languageFromRequest, renderingI18n } from './i18next.server.ts';
import { CoalescingStream } from './utils/coalescing-stream.server.ts';
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

  // Crawlers get the whole document at once; browsers get the shell early.
  const readyEvent = isbot(request.headers.get('user-agent')) ? 'onAllReady' : 'onShellReady';

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={instance}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />
      </I18nextProvider>,
      {
        [readyEvent]() {
          shellRendered = true;
          // React's 2 KB pieces go out as one chunk per batch it renders (app/utils/coalescing-stream.server.ts).
          const body = new CoalescingStream();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors during the streaming after the shell are logged; before it, the boundary renders them.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}
