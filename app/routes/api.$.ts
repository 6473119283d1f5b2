import { API_ERRORS, apiError } from '~/utils/api.server.ts';

/** Unknown /api paths answer JSON, not the HTML 404 page. */
const notFound = () => apiError(404, API_ERRORS.notFound);
export const loader = notFound;
export const action = notFound;
