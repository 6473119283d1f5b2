import { getOutgoingUbl } from '~/einvoices/outgoing.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/einvoices/{id}/ubl: the UBL 2.1 XML as issued and sent, as an attachment named after its number. */
export const loader = apiLoader('read:all', async ({ params }) => {
  const { number, xml, sha256 } = await getOutgoingUbl(requireUuidParam(params.id));
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      // Numbers are FF-YYYY-NNNNNN: safe as a file name as they are.
      'Content-Disposition': `attachment; filename="${number}.xml"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ETag: `"${sha256}"`,
    },
  });
});

export const action = () => methodNotAllowed(['GET']);
