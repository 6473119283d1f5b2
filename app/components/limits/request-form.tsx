import { getInputProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Button, Flex, Text } from '@radix-ui/themes';
import { Link, useFetcher } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, FormErrors } from '~/components/forms.tsx';
import { creditLimitRequestSchema, LIMIT_PARTY_TYPES, type LimitPartyType } from '~/limits/schemas.ts';
import { formatEur } from '~/utils/format.ts';
import { useRefusalTexts } from '~/components/refusal-text.ts';
import { CreateDialog, CreatePanel } from '~/components/kit/create-form.tsx';
import { Options, SelectField, TextAreaField } from '~/components/kit/fields.tsx';

/**
 * The 'new credit limit request' form (docs/screens.md, docs/domain-model.md#validation): whose
 * limit (a client's or a debtor's), the party, requested limit, reason and
 * validUntil (one year ahead by default). The dialog posts through a fetcher
 * when JavaScript runs; the same fields render as a page panel at `?new=1`,
 * a plain form post, which is where the button leads without it. The debtor
 * select lists the first debtors by name; a search finds any other: typed
 * with JavaScript (the customers API), or, without it, a 'find' button that
 * posts the form back with what was entered (as the invoice form does).
 */
export type RequestFormResult = SubmissionResult<string[]>;
export interface PartyChoice {
  id: string;
  companyName: string;
  creditLimit: number | null;
}
/** The no-JavaScript search step's answer: the values entered, the term and the debtors it found. */
export interface FindDebtorResult {
  intent: 'find';
  values: FormValues;
  customerQ: string;
  customers: PartyChoice[];
  capped: boolean;
}
interface CreateLimitResult {
  intent: 'create';
  result: RequestFormResult;
  created?: boolean;
}
export type LimitActionData = CreateLimitResult | FindDebtorResult;

type FormValues = { partyType?: string; clientId?: string; customerId?: string; creditLimit?: string; reason?: string; validUntil?: string };

function useRequestForm(id: string, lastResult: RequestFormResult | undefined, defaultValue: FormValues) {
  return useForm<FormValues>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: creditLimitRequestSchema }) as Submission<FormValues>,
  });
}

type Fields = ReturnType<typeof useRequestForm>[1];

function currentLimitHint(choice: PartyChoice | undefined, t: (key: string, options?: Record<string, unknown>) => string) {
  return choice ? (
    <Text size="1" color="gray" data-testid="current-limit">
      {t('limits.currentLimit', { limit: choice.creditLimit === null ? t('limits.noLimit') : formatEur(choice.creditLimit, { decimals: 0 }) })}
    </Text>
  ) : null;
}

/**
 * The debtor select. Without JavaScript a search field and its 'find' button
 * post the form back (button name 'find') for the debtors matching the term;
 * with JavaScript a search box asks the customers API. The chosen debtor
 * stays listed while the search changes.
 */
function DebtorSelect({ fields, initial, noScript }: { fields: Fields; initial: PartyChoice[]; noScript: { term: string; searched: boolean; capped: boolean } }) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  const [hydrated, setHydrated] = useState(false);
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<PartyChoice[] | null>(null);
  const [chosen, setChosen] = useState<PartyChoice | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    const q = term.trim();
    if (q.length < 2) {
      setFound(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/api/customers?q=${encodeURIComponent(q)}&limit=50`, { signal: controller.signal, headers: { Accept: 'application/json' } });
        if (!response.ok) return;
        const rows = (await response.json()) as Array<{ id: string; companyName: string; creditLimit: number | null }>;
        setFound(rows.map((row) => ({ id: row.id, companyName: row.companyName, creditLimit: row.creditLimit })));
      } catch {
        // Aborted by the next keystroke, or offline: the list stays as it was.
      }
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);
  const listed = found ?? initial;
  const options = chosen && !listed.some((option) => option.id === chosen.id) ? [chosen, ...listed] : listed;
  const selected = options.find((option) => option.id === fields.customerId.value) ?? initial.find((option) => option.id === fields.customerId.value);
  const searchId = `${useId()}-search`;
  return (
    <Flex direction="column" gap="1">
      {hydrated ? (
        <input
          type="search"
          className="native-select"
          aria-label={t('limits.fields.findCustomer')}
          placeholder={t('limits.fields.findCustomer')}
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          data-testid="customers-search"
        />
      ) : (
        <Flex direction="column" gap="1" data-testid="customers-find">
          <Text as="label" htmlFor={searchId} size="2" weight="medium">
            {t('limits.fields.findCustomer')}
          </Text>
          <Flex gap="2">
            <input id={searchId} type="search" name="customerQ" defaultValue={noScript.term} className="native-select" style={{ flex: 1 }} />
            {/* formNoValidate: a search step need not wait for the rest of the form to be complete. */}
            <Button type="submit" name="find" value="customers" variant="soft" formNoValidate>
              {t('limits.fields.find')}
            </Button>
          </Flex>
          {noScript.searched ? (
            <Text size="1" color="gray" role="status">
              {initial.length === 0 ? t('limits.fields.none') : t('limits.fields.found', { count: initial.length })}
            </Text>
          ) : null}
          {noScript.capped ? (
            <Text size="1" color="gray">
              {t('limits.fields.capped', { count: initial.length })}
            </Text>
          ) : null}
        </Flex>
      )}
      <SelectField
        label={t('limits.fields.customerId')}
        meta={fields.customerId}
        errors={errorText(fields.customerId.errors)}
        selectProps={{
          required: true,
          onChange: (event) => setChosen(options.find((option) => option.id === event.target.value) ?? null),
        }}
        hint={currentLimitHint(selected, t)}
      >
        <option value="">{t('limits.fields.chooseCustomer')}</option>
        <Options items={options} value={(customer) => customer.id} label={(customer) => customer.companyName} />
      </SelectField>
    </Flex>
  );
}

function RequestFields({
  form,
  fields,
  clients,
  customers,
  today,
  partyType,
  noScript,
}: {
  form: ReturnType<typeof useRequestForm>[0];
  fields: Fields;
  clients: PartyChoice[];
  customers: PartyChoice[];
  today: string;
  partyType: LimitPartyType;
  noScript: { term: string; searched: boolean; capped: boolean };
}) {
  const { t } = useTranslation();
  const errorText = useRefusalTexts();
  const selected = clients.find((client) => client.id === fields.clientId.value);
  return (
    <Flex direction="column" gap="3">
      {partyType === 'client' ? (
        <SelectField
          label={t('limits.fields.clientId')}
          meta={fields.clientId}
          errors={errorText(fields.clientId.errors)}
          selectProps={{ required: true }}
          hint={currentLimitHint(selected, t)}
        >
          <option value="">{t('limits.fields.chooseClient')}</option>
          <Options items={clients} value={(client) => client.id} label={(client) => client.companyName} />
        </SelectField>
      ) : (
        <DebtorSelect fields={fields} initial={customers} noScript={noScript} />
      )}
      <Field
        label={t('limits.fields.creditLimit')}
        inputProps={{ ...getInputProps(fields.creditLimit, { type: 'number' }), step: '0.01', min: '0.01', inputMode: 'decimal', placeholder: '50000', required: true }}
        errors={errorText(fields.creditLimit.errors)}
      />
      <TextAreaField label={t('limits.fields.reason')} meta={fields.reason} errors={errorText(fields.reason.errors)} textAreaProps={{ maxLength: 5000, required: true }} />
      <Field
        label={t('limits.fields.validUntil')}
        inputProps={{ ...getInputProps(fields.validUntil, { type: 'date' }), min: today }}
        errors={errorText(fields.validUntil.errors)}
      />
      <FormErrors errors={errorText(form.errors)} />
    </Flex>
  );
}

const NOT_SEARCHED = { term: '', searched: false, capped: false };

/** The JavaScript dialog: whose limit is a select; toasts on failure, closes and resets on success (the success toast comes from the server). */
/** What both request forms offer: the clients and debtors to choose from, the default 'valid until' and today (its lower bound). */
interface RequestChoices {
  clients: PartyChoice[];
  customers: PartyChoice[];
  defaultValidUntil: string;
  today: string;
}

export function RequestLimitDialog({
  open,
  onOpenChange,
  choices: { clients, customers, defaultValidUntil, today },
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  choices: RequestChoices;
}) {
  const { t } = useTranslation();
  // The dialog runs with JavaScript, so it never posts the no-JavaScript search step: its answers are the create form's.
  const fetcher = useFetcher<CreateLimitResult>({ key: 'request-limit' });
  const [form, fields] = useRequestForm('new-limit-request', fetcher.data?.result, { validUntil: defaultValidUntil, partyType: 'client' });
  const partyType: LimitPartyType = fields.partyType.value === 'customer' ? 'customer' : 'client';
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      fetcher={fetcher}
      form={form}
      title={t('limits.dialogTitle')}
      description={t('limits.dialogDescription')}
      maxWidth="560px"
      failureToast={{ title: 'limits.toast.createFailed', variant: 'destructive' }}
      labels={{ cancel: t('limits.cancel'), save: t('limits.save'), saving: t('limits.saving') }}
    >
      <Flex direction="column" gap="3">
        <SelectField label={t('limits.fields.partyType')} meta={fields.partyType}>
          <Options items={LIMIT_PARTY_TYPES} label={(type) => t(`limits.newFor.${type}`)} />
        </SelectField>
        <RequestFields form={form} fields={fields} clients={clients} customers={customers} today={today} partyType={partyType} noScript={NOT_SEARCHED} />
      </Flex>
    </CreateDialog>
  );
}

/**
 * The same form as a page panel (`?new=1`, `&for=customer` for a debtor's
 * limit, `&client=<id>` or `&customer=<id>` preselected): works without
 * JavaScript. Whose limit is chosen by the two links, which keep the panel open.
 */
export function RequestLimitPanel({
  choices: { clients, customers, defaultValidUntil, today },
  partyType,
  clientId,
  customerId,
  lastResult,
  find,
  cancelTo,
  hrefFor,
  customersCapped = false,
}: {
  choices: RequestChoices;
  /** More debtors exist than `choices.customers` lists. */
  customersCapped?: boolean;
  partyType: LimitPartyType;
  clientId: string | null;
  customerId: string | null;
  lastResult?: RequestFormResult;
  find?: FindDebtorResult | null;
  cancelTo: string;
  hrefFor: (partyType: LimitPartyType) => string;
}) {
  const { t } = useTranslation();
  const defaults: FormValues = find?.values ?? { validUntil: defaultValidUntil, clientId: clientId ?? undefined, customerId: customerId ?? undefined };
  const [form, fields] = useRequestForm('new-limit-request-panel', lastResult, { ...defaults, partyType });
  return (
    <CreatePanel
      form={form}
      testId="create-panel"
      title={t('limits.dialogTitle')}
      description={t('limits.dialogDescription')}
      cancelTo={cancelTo}
      labels={{ cancel: t('limits.cancel'), save: t('limits.save'), saving: t('limits.saving') }}
      hidden={<input type="hidden" name="partyType" value={partyType} />}
    >
      <nav aria-label={t('limits.newFor.label')}>
        <Flex gap="3" align="center" wrap="wrap">
          <Text size="2" weight="medium">
            {t('limits.newFor.label')}:
          </Text>
          {LIMIT_PARTY_TYPES.map((type) => (
            <Button key={type} asChild size="1" variant={type === partyType ? 'solid' : 'soft'}>
              <Link to={hrefFor(type)} aria-current={type === partyType ? 'true' : undefined} data-testid={`new-for-${type}`}>
                {t(`limits.newFor.${type}`)}
              </Link>
            </Button>
          ))}
        </Flex>
      </nav>
      <RequestFields
        form={form}
        fields={fields}
        clients={clients}
        customers={find?.customers ?? customers}
        today={today}
        partyType={partyType}
        noScript={find ? { term: find.customerQ, searched: Boolean(find.customerQ), capped: find.capped } : { ...NOT_SEARCHED, capped: customersCapped }}
      />
    </CreatePanel>
  );
}
