/// <reference types="vite/client" />
/**
 * Every /api route that needs a session or a role, gathered from one file per
 * product area (protected-routes/<area>.ts, each exporting `routes`), so the
 * access test checks them all from one table.
 */
export type ProtectedRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** The lowest role that may call it. */
  role: 'user' | 'manager' | 'admin';
};

const areas = import.meta.glob<ProtectedRoute[]>('./protected-routes/*.ts', { eager: true, import: 'routes' });
export const PROTECTED_ROUTES: ProtectedRoute[] = Object.values(areas).flat();
