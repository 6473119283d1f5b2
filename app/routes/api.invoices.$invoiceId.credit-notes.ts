import { addCreditNote, listCreditNotes } from '~/dilution/credit-notes.server.ts';
import { creditNoteSchema } from '~/dilution/schemas.ts';
import { apiJson, listParams, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/invoices/{id}/credit-notes: the invoice's credit notes, oldest first; ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request, params }) => {
  const { limit, offset } = listParams(request);
  const { items, total } = await listCreditNotes(requireUuidParam(params.invoiceId), { limit, offset });
  return apiList(items, total);
});

/**
 * POST /api/invoices/{id}/credit-notes {number, issueDate, amount, reason} → 201 with the credit note: it dilutes the
 * purchased invoice (docs/collections.md#dilution-and-disputes-resolved). Manager.
 */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'record:credit_note' }, async ({ actor, request, params, ip }) => {
  const invoiceId = requireUuidParam(params.invoiceId);
  const input = await parseJsonBody(request, creditNoteSchema);
  return apiJson(await addCreditNote({ actor, invoiceId, input, ip }), { status: 201 });
});
