import { can } from '../auth/permissions.server.ts';
import type { PublicUser } from '../auth/user-record.server.ts';
import { pageCount, pageOffset } from '../utils/list-url.ts';
import { invoiceDebtorView } from './disputes.server.ts';
import { confirmablePairs, listDebtorLinks } from './links.server.ts';

/** What the staff pages show of the debtor's side (docs/screens.md): the customer page's links, the invoice page's dispute and answer. */
export const LINKS_PAGE_SIZE = 10;

export async function customerDebtorLinks(customerId: string, request: Request, user: PublicUser) {
  const requested = Number(new URL(request.url).searchParams.get('linksPage'));
  const page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const canManage = can(user, 'manage:debtor_links');
  const [{ links, total }, clients] = await Promise.all([
    listDebtorLinks(customerId, { limit: LINKS_PAGE_SIZE, offset: pageOffset(page, LINKS_PAGE_SIZE) }),
    canManage ? confirmablePairs(customerId) : Promise.resolve([]),
  ]);
  return { links, total, page, pages: pageCount(total, LINKS_PAGE_SIZE), clients, canManage };
}

export async function invoiceDebtorSection(invoiceId: string, user: PublicUser) {
  return { ...(await invoiceDebtorView(invoiceId)), canDispute: can(user, 'dispute:invoice') };
}
