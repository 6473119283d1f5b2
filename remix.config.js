/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Tests and server-only helpers sit beside routes; keep them out of routing.
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}', '**/*.server.{ts,tsx}'],
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
  // ESM-only packages must be bundled into the server build for the classic compiler.
  serverDependenciesToBundle: [/^remix-auth/, /^remix-i18next/, /^@conform-to\//],
};
