import type { RequestHandler } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * docs/api.md: a cookie-authenticated write must come from our own pages.
 * Browsers send Origin (and Sec-Fetch-Site) on every cross-site POST/PUT/DELETE;
 * a write whose Origin is another site is refused before it reaches a route.
 * Requests without Origin (curl, server-to-server) carry no ambient cookies
 * from a victim's browser, so they pass to the route's own auth check.
 */
export function rejectCrossSiteWrites(appUrl: string): RequestHandler {
  const configuredOrigin = new URL(appUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    const fetchSite = req.get('sec-fetch-site');
    const requestOrigin = `${req.protocol}://${req.get('host')}`;
    // Sec-Fetch-Site is set by the browser itself; 'same-origin' is trusted even when a
    // no-referrer policy made the browser send `Origin: null`.
    if (fetchSite === 'same-origin') return next();
    const sameOrigin = origin === undefined || origin === requestOrigin || origin === configuredOrigin;
    if (sameOrigin && fetchSite !== 'cross-site' && fetchSite !== 'same-site') return next();
    res.status(403).json({ message: 'Cross-site request refused' });
  };
}
