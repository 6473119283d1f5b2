import { json } from '@remix-run/node';
import { requirePermission } from '../auth/permissions.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { listIncomingEInvoices, retryIncomingEInvoice } from './incoming.server.ts';
import { resendEInvoice } from './outgoing-send.server.ts';
import { listOutgoingEInvoices } from './outgoing.server.ts';
import { readFormData } from '../utils/form-data.server.ts';
import { safeRedirect } from '../utils/safe-redirect.ts';

/**
 * The e-invoice lists of /integrations/einvoicing and their two page actions:
 * intent resendEInvoice (manager: a failed e-invoice is sent again) and
 * retryIncoming (user: the intake runs again on a refused document).
 */
export const EINVOICE_INTENTS = ['resendEInvoice', 'retryIncoming'] as const;
export type EInvoiceIntent = (typeof EINVOICE_INTENTS)[number];
export const isEInvoiceIntent = (value: string): value is EInvoiceIntent => (EINVOICE_INTENTS as readonly string[]).includes(value);

export const EINVOICES_PER_PAGE = 20;

const pageOf = (value: string | null) => Math.max(1, Number.parseInt(value ?? '1', 10) || 1);

/** ?page= pages the outgoing list, ?incomingPage= the received one; a page past the end shows the last. */
export async function einvoicingLists(search: URLSearchParams) {
  const load = async <T>(requested: number, read: (offset: number) => Promise<{ items: T[]; total: number }>) => {
    let result = await read((requested - 1) * EINVOICES_PER_PAGE);
    const pages = Math.max(1, Math.ceil(result.total / EINVOICES_PER_PAGE));
    const page = Math.min(requested, pages);
    if (page !== requested) result = await read((page - 1) * EINVOICES_PER_PAGE);
    return { items: result.items, total: result.total, page, pages };
  };
  const [outgoing, incoming] = await Promise.all([
    load(pageOf(search.get('page')), (offset) => listOutgoingEInvoices({ limit: EINVOICES_PER_PAGE, offset })),
    load(pageOf(search.get('incomingPage')), (offset) => listIncomingEInvoices({ limit: EINVOICES_PER_PAGE, offset })),
  ]);
  return { outgoing, incoming };
}

const localPath = safeRedirect;

export async function handleEInvoiceIntent(request: Request, options: { ip: string | null; fallback: string }) {
  const formData = await readFormData(request);
  const intent = String(formData.get('intent') ?? '');
  if (!isEInvoiceIntent(intent)) return json({ intent, message: 'Unknown intent' }, { status: 400 });
  const back = localPath(formData.get('redirectTo'), options.fallback);
  const id = String(formData.get('id') ?? '');
  try {
    if (intent === 'resendEInvoice') {
      const actor = await requirePermission(request, 'send:einvoice');
      const einvoice = await resendEInvoice({ actor, id, ip: options.ip });
      return redirectWithToast(back, { title: 'einvoices.toast.resentTitle', description: 'einvoices.toast.resent', params: { number: einvoice.number } });
    }
    const actor = await requirePermission(request, 'create:invoice');
    const status = await retryIncomingEInvoice({ actor, id, ip: options.ip });
    return redirectWithToast(back, {
      title: 'einvoices.toast.retriedTitle',
      description: status === 'imported' ? 'einvoices.toast.retriedImported' : 'einvoices.toast.retriedFailed',
      variant: status === 'imported' ? 'default' : 'destructive',
    });
  } catch (error) {
    const refusal = await readApiError(error);
    if (!refusal) throw error;
    return json({ intent, message: refusal.message, errors: refusal.errors }, { status: refusal.status });
  }
}
