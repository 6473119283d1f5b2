import { purgeUnclaimedUploads } from '../../app/documents/uploads.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Hourly: the registration wizard's uploads that nobody claimed before their
 * hold ran out are deleted, with their files unless a document (or another
 * upload) shares the same bytes (DESIGN §9). Idempotent: a rerun finds nothing.
 */
export const queue = 'purge-uploads';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const { slots, files } = await purgeUnclaimedUploads();
  if (slots > 0) log.info(`purge-uploads: removed ${slots} upload slot(s) and ${files} file(s)`);
};
