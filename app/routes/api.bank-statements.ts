import { importBankStatement } from '~/banking/camt053.server.ts';
import { readStatementUpload } from '~/banking/upload.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/**
 * POST /api/bank-statements: a camt.053 statement (XML body, or multipart with
 * `file`) → 200 {statementId, statementRef, matched, unmatched, duplicates, skipped, alreadyImported}.
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'create:payment' }, async ({ actor, request, ip }) => {
  const { xml, fileName } = await readStatementUpload(request);
  return apiJson(await importBankStatement({ actor, xml, fileName, ip }));
});

export const loader = () => methodNotAllowed(['POST']);
