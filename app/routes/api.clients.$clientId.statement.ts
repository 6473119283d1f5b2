import type { ActionFunctionArgs } from '@remix-run/node';
import { statementCsv, statementFileName, statementPdf } from '~/ledger/statement-documents.server.ts';
import { statement } from '~/ledger/statement.server.ts';
import { statementQuerySchema } from '~/ledger/schemas.ts';
import { methodNotAllowed, parseInput } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/**
 * GET /api/clients/{id}/statement?from=YYYY-MM-DD&to=YYYY-MM-DD&format=pdf|csv:
 * the client's statement of account in Croatian (docs/money.md#the-clients-account).
 * 400 for a bad or inverted range or an unknown format, 404 for an unknown
 * client. A resource route, so the client page's plain GET form downloads it
 * with or without JavaScript.
 */
export const loader = apiLoader('read:all', async ({ request, params }) => {
  const query = parseInput(statementQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  const data = await statement(params.clientId ?? '', query.from, query.to);
  const headers = { 'Content-Disposition': `attachment; filename="${statementFileName(data, query.format)}"`, 'Cache-Control': 'no-store' };
  if (query.format === 'csv') return new Response(statementCsv(data), { headers: { ...headers, 'Content-Type': 'text/csv; charset=utf-8' } });
  return new Response(new Uint8Array(await statementPdf(data)), { headers: { ...headers, 'Content-Type': 'application/pdf' } });
});

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
