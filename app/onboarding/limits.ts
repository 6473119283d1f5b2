/**
 * The per-draft upload cap, shared by the server (which enforces it) and the
 * page (which names it in the error). Every byte attached to one draft counts,
 * replaced files included; five files of 10 MB fit.
 */
export const DRAFT_UPLOAD_CAP_BYTES = 60 * 1024 * 1024;
export const DRAFT_UPLOAD_CAP_MB = DRAFT_UPLOAD_CAP_BYTES / (1024 * 1024);
