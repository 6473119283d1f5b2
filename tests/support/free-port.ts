// The helper lives beside the embedded database, which takes a free port itself when EMBEDDED_PG_PORT is unset.
export { freePort } from '../../db/ports.ts';
