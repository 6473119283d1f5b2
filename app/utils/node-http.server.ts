import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadableStreamFromReadable } from '@remix-run/node';
import proxyAddr from 'proxy-addr';

/**
 * The web process's translation between Node's HTTP objects and the Fetch
 * Request and Response Remix's routes take and give, for both of server.ts's
 * paths (Express, and the short path of `GET /api/…` that Express never
 * sees). It gives what Express and Remix's Express adapter gave: the client
 * address, protocol and host as Express reads them under `trust proxy`, and
 * each header as Express's `res.append` writes it.
 */

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): may the hop at `index` be believed? */
export type TrustProxy = (address: string | undefined, index: number) => boolean;

/** `req.ip`: the socket's address, or the nearest untrusted address in X-Forwarded-For. */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string | null {
  return proxyAddr(req, trust) || null;
}

const firstOf = (value: string) => {
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim();
};

/** `req.protocol`: X-Forwarded-Proto's first value when the proxy is trusted. */
function protocolOf(req: IncomingMessage, trust: TrustProxy): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress, 0)) return own;
  const forwarded = req.headers['x-forwarded-proto'];
  return forwarded ? firstOf(forwarded as string) : own;
}

/**
 * The host and port of the request's URL: X-Forwarded-Host's when the proxy
 * is trusted, else Host's. (Remix's Express adapter took X-Forwarded-Host's
 * port even from a client no proxy vouched for.)
 */
function hostOf(req: IncomingMessage, trust: TrustProxy): string {
  const forwardedHost = req.headers['x-forwarded-host'] as string | undefined;
  const host = (forwardedHost && trust(req.socket.remoteAddress, 0) ? firstOf(forwardedHost) : req.headers.host) ?? '';
  // An IPv6 literal keeps its colons.
  const offset = host[0] === '[' ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', offset);
  if (colon === -1) return host;
  const port = Number.parseInt(host.slice(colon + 1), 10);
  return `${host.slice(0, colon)}${Number.isSafeInteger(port) && port ? `:${port}` : ''}`;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

/**
 * The Fetch Request of a Node request, as Remix's Express adapter builds it:
 * the full URL, every header, the body as a stream, and a signal aborted when
 * the client goes away before the answer is complete.
 */
export function fetchRequestOf(req: IncomingMessage, res: ServerResponse, trust: TrustProxy): Request {
  const url = new URL(`${protocolOf(req, trust)}://${hostOf(req, trust)}${req.url ?? '/'}`);
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers: headersOf(req), signal: controller.signal };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = 'half';
  }
  res.on('finish', () => (controller = null));
  res.on('close', () => controller?.abort());
  return new Request(url.href, init);
}

const hasCharset = /;\s*charset\s*=/;

/** Express's `res.append`: a repeated header becomes a list, and a text or JSON Content-Type without a charset gets `; charset=utf-8`. */
function appendHeader(res: ServerResponse, name: string, value: string) {
  if (name === 'content-type') {
    if (!hasCharset.test(value) && /^text\/|^application\/(javascript|json)/.test(value.split(';')[0]!)) value += '; charset=utf-8';
    res.setHeader(name, value);
    return;
  }
  const previous = res.getHeader(name);
  if (previous === undefined) res.setHeader(name, value);
  else res.setHeader(name, Array.isArray(previous) ? [...previous, value] : [String(previous), value]);
}

/**
 * Writes a Fetch Response. Remix's own Express adapter writes a streamed body
 * without waiting for the client, so a 150 MB book export to a slow client
 * would pile up in memory. Here each chunk waits for the socket to drain, and
 * a client that goes away cancels the stream (the export stops reading the
 * database).
 */
export async function sendResponse(res: ServerResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [key, value] of response.headers.entries()) appendHeader(res, key, value);
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const settle = () => {
            res.off('drain', settle);
            res.off('close', settle);
            resolve();
          };
          res.on('drain', settle);
          res.on('close', settle);
        });
      }
      // The client went away: stop reading (cancels the source, e.g. the export's database cursor).
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}
