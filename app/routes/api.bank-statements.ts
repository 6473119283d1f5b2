import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { importBankStatement } from '~/banking/camt053.server.ts';
import { readStatementUpload } from '~/banking/upload.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/**
 * POST /api/bank-statements: a camt.053 statement (XML body, or multipart with
 * `file`) → 200 {statementId, statementRef, matched, unmatched, duplicates, skipped, alreadyImported}.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const actor = await requirePermission(request, 'create:payment', { api: true });
  const { xml, fileName } = await readStatementUpload(request);
  return apiJson(await importBankStatement({ actor, xml, fileName, ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['POST']);
