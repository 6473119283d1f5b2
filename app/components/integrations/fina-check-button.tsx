import { Button } from '@radix-ui/themes';
import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/**
 * 'FINA provjera' (docs/screens.md customer card): POSTs the check to
 * /api/customers/{id}/fina-check, which answers a form post with a redirect
 * back here and a toast, so it works without JavaScript.
 */
export function FinaCheckButton({ customerId, redirectTo, label }: { customerId: string; redirectTo: string; label?: string }) {
  const { t } = useTranslation();
  const action = `/api/customers/${customerId}/fina-check`;
  return (
    // A document post: the resource route's redirect (with the toast cookie) then loads the page like a plain form would.
    <Form method="post" action={action} reloadDocument>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Button type="submit" variant="soft" style={{ width: '100%' }} data-testid="fina-check">
        {label ?? t('customers.finaCheck')}
      </Button>
    </Form>
  );
}
