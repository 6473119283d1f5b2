import { getFormProps, getInputProps, getSelectProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Box, Button, Callout, Card, DataList, Dialog, Flex, Grid, Heading, Separator, Tabs, Text } from '@radix-ui/themes';
import { Form, Link, useFetcher, useNavigation, type FetcherWithComponents } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorList, Field } from '~/components/forms.tsx';
import { useToast } from '~/components/toaster.tsx';
import type { FindResult, ImportResult } from '~/invoices/page.server.ts';
import { invoiceCreateSchema } from '~/invoices/schemas.ts';
import { useRefusalText } from '~/components/refusal-text.ts';
import { Options, SubmitRow, TextAreaField } from '~/components/kit/fields.tsx';
import { AlertCallout } from '~/components/kit/callouts.tsx';
import { Fact } from '~/components/kit/light.tsx';

/**
 * 'Dodaj fakturu': the manual form (client, customer, number, dates, amount,
 * currency, description, optional PDF) and the e-invoice intake (client +
 * UBL XML). Both are multipart posts to the /invoices action, so they work
 * without JavaScript (the `?new=1` panel); with JavaScript the same forms sit
 * in a Radix dialog and post through fetchers.
 */
export interface PartyOptions {
  clients: PartyOption[];
  customers: PartyOption[];
  /** More parties exist than listed (the no-JavaScript search step finds them). */
  capped?: { clients: boolean; customers: boolean };
  /** How many the list or the search step found, a kept choice not counted. */
  found?: { clients: number; customers: number };
}
export interface CreateResult {
  intent: 'create';
  result: SubmissionResult<string[]>;
  created?: boolean;
}
export type AddResult = CreateResult | ImportResult | FindResult;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFetcher = FetcherWithComponents<any>;

function PostForm({ fetcher, children, ...props }: { fetcher?: AnyFetcher; children: React.ReactNode } & React.ComponentProps<'form'>) {
  const common = { ...props, method: 'post' as const, encType: 'multipart/form-data' as const };
  return fetcher ? <fetcher.Form {...common}>{children}</fetcher.Form> : <Form {...common}>{children}</Form>;
}

function NativeSelect({ label, errors, children, ...props }: { label: string; errors?: string[] } & React.ComponentProps<'select'>) {
  const showRefusal = useRefusalText();
  const fallback = useId();
  const id = props.id ?? fallback;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <select {...props} id={id} className="native-select" aria-invalid={errors?.length ? true : undefined}>
        {children}
      </select>
      <ErrorList errors={errors?.map((error) => showRefusal(error))} />
    </Flex>
  );
}

type PartyKind = 'clients' | 'customers';
type PartyOption = { id: string; name: string; blocked?: boolean };

/** Per kind of party: its label, its choose-option text and the no-JavaScript search field's name. */
const PARTY_KINDS = {
  clients: { label: 'invoices.form.client', choose: 'invoices.form.chooseClient', term: 'clientQ' },
  customers: { label: 'invoices.form.customer', choose: 'invoices.form.chooseCustomer', term: 'customerQ' },
} as const;

/**
 * The client or customer select. Without JavaScript the page sends the first
 * names alphabetically, and a search field with its 'find' button posts the
 * form back (intent kept, button name 'find') to list the parties matching it,
 * every value entered kept; with JavaScript the list comes from the list API
 * (the newest, or what the search box above it finds by name, OIB prefix or
 * email). Either way any of tens of thousands can be chosen, and the chosen
 * one stays in the list while the search changes.
 */
function PartySelect({
  kind,
  errors,
  selectProps,
  options: sent,
  searched,
}: {
  kind: PartyKind;
  errors?: string[];
  selectProps: React.ComponentProps<'select'>;
  options: PartyOptions;
  /** The search step's answer for this form (null: nothing searched yet). */
  searched: FindResult | null;
}) {
  const { t } = useTranslation();
  const { label, choose, term: termName } = PARTY_KINDS[kind];
  const initial = sent[kind];
  // The no-JavaScript search step: what was searched and whether the list is cut.
  const noScript = {
    term: searched?.[termName] ?? '',
    searched: Boolean(searched?.[termName]),
    capped: sent.capped?.[kind] ?? false,
    found: sent.found?.[kind] ?? initial.length,
  };
  const [hydrated, setHydrated] = useState(false);
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<PartyOption[] | null>(null);
  const [chosen, setChosen] = useState<PartyOption | null>(null);
  useEffect(() => setHydrated(true), []);
  const sentList = initial.length > 0;
  useEffect(() => {
    const q = term.trim();
    if (q.length < 2 && sentList) {
      setFound(null);
      return;
    }
    // The dialog comes without a list (it would weigh on every /invoices page): the newest parties, or the search.
    const query = q.length >= 2 ? `q=${encodeURIComponent(q)}&limit=50` : 'limit=100';
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/api/${kind}?${query}`, { signal: controller.signal, headers: { Accept: 'application/json' } });
        if (!response.ok) return;
        const rows = (await response.json()) as Array<{ id: string; companyName: string; accountBlocked?: boolean }>;
        setFound(rows.map((row) => ({ id: row.id, name: row.companyName, blocked: row.accountBlocked ?? false })));
      } catch {
        // Aborted by the next keystroke, or offline: the list stays as it was.
      }
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term, kind, sentList]);
  const listed = found ?? initial;
  const options = chosen && !listed.some((option) => option.id === chosen.id) ? [chosen, ...listed] : listed;
  const searchId = `${useId()}-search`;
  return (
    <Flex direction="column" gap="1">
      {!hydrated ? (
        <Flex direction="column" gap="1" data-testid={`${kind}-find`}>
          <Text as="label" htmlFor={searchId} size="2" weight="medium">
            {t(`invoices.form.search.${kind}`)}
          </Text>
          <Flex gap="2">
            <input id={searchId} type="search" name={termName} defaultValue={noScript.term} className="native-select" style={{ flex: 1 }} />
            {/* formNoValidate: a search step need not wait for the rest of the form to be complete. */}
            <Button type="submit" name="find" value={kind} variant="soft" formNoValidate>
              {t(`invoices.form.search.find.${kind}`)}
            </Button>
          </Flex>
          {noScript.searched ? (
            <Text size="1" color="gray" role="status">
              {noScript.found === 0 ? t('invoices.form.search.none') : t('invoices.form.search.found', { count: noScript.found })}
              {noScript.capped ? ` ${t('invoices.form.search.narrow')}` : ''}
            </Text>
          ) : noScript.capped ? (
            <Text size="1" color="gray">
              {t('invoices.form.search.capped', { count: noScript.found })}
            </Text>
          ) : null}
        </Flex>
      ) : null}
      {hydrated ? (
        <input
          type="search"
          className="native-select"
          aria-label={t(`invoices.form.search.${kind}`)}
          placeholder={t(`invoices.form.search.${kind}`)}
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          data-testid={`${kind}-search`}
        />
      ) : null}
      <NativeSelect
        label={t(label)}
        errors={errors}
        {...selectProps}
        onChange={(event) => {
          selectProps.onChange?.(event);
          setChosen(options.find((option) => option.id === event.target.value) ?? null);
        }}
      >
        <option value="">{t(choose)}</option>
        {found !== null && found.length === 0 ? (
          <option value="" disabled>
            {t('invoices.form.search.none')}
          </option>
        ) : null}
        <Options items={options} value={(option) => option.id} label={(option) => (option.blocked ? `${option.name} (${t('invoices.form.blocked')})` : option.name)} />
      </NativeSelect>
    </Flex>
  );
}

/** The search step's answer for one form: its values and terms (or nothing searched yet). */
function searchedFor(find: FindResult | null | undefined, form: FindResult['form']) {
  return find?.form === form ? find : null;
}

export function ManualInvoiceForm({
  options,
  lastResult,
  fetcher,
  find,
}: {
  options: PartyOptions;
  lastResult?: SubmissionResult<string[]>;
  fetcher?: AnyFetcher;
  find?: FindResult | null;
}) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const navigation = useNavigation();
  const saving = fetcher ? fetcher.state !== 'idle' : navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create';
  const searched = searchedFor(find, 'create');
  const [form, fields] = useForm<Record<string, string>>({
    id: fetcher ? 'add-invoice-dialog' : 'add-invoice',
    lastResult,
    defaultValue: { currency: 'EUR', ...searched?.values },
    constraint: getZodConstraint(invoiceCreateSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invoiceCreateSchema }) as Submission<Record<string, string>>,
  });
  const tr = (errors?: string[]) => errors?.map((error) => showRefusal(error));
  return (
    <PostForm fetcher={fetcher} {...getFormProps(form)} data-testid="manual-invoice-form">
      <input type="hidden" name="intent" value="create" />
      {fetcher ? <input type="hidden" name="via" value="dialog" /> : null}
      <Flex direction="column" gap="3">
        <Grid columns={{ initial: '1', sm: '2' }} gap="3">
          <PartySelect kind="clients" errors={fields.clientId.errors} selectProps={getSelectProps(fields.clientId)} options={options} searched={searched} />
          <PartySelect kind="customers" errors={fields.customerId.errors} selectProps={getSelectProps(fields.customerId)} options={options} searched={searched} />
          <Field label={t('invoices.form.invoiceNumber')} inputProps={getInputProps(fields.invoiceNumber, { type: 'text' })} errors={tr(fields.invoiceNumber.errors)} />
          <Field
            label={t('invoices.form.amount')}
            inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', placeholder: '1250.00' }}
            errors={tr(fields.amount.errors)}
          />
          <Field label={t('invoices.form.issueDate')} inputProps={getInputProps(fields.issueDate, { type: 'date' })} errors={tr(fields.issueDate.errors)} />
          <Field label={t('invoices.form.dueDate')} inputProps={getInputProps(fields.dueDate, { type: 'date' })} errors={tr(fields.dueDate.errors)} />
          <Field label={t('invoices.form.currency')} inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), maxLength: 3 }} errors={tr(fields.currency.errors)} />
          <FileInput name="file" label={t('invoices.form.pdf')} accept=".pdf,application/pdf" errors={tr(fields.file?.errors)} />
        </Grid>
        <TextAreaField label={t('invoices.form.description')} meta={fields.description} errors={tr(fields.description.errors)} />
        {form.errors?.length ? <AlertCallout size="1">{form.errors.map((error) => showRefusal(error)).join(' ')}</AlertCallout> : null}
        <SubmitRow submitLabel={t('invoices.form.save')} busyLabel={t('invoices.form.saving')} busy={saving} />
      </Flex>
    </PostForm>
  );
}

function FileInput({ name, label, accept, errors }: { name: string; label: string; accept: string; errors?: string[] }) {
  const id = useId();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <input id={id} type="file" name={name} accept={accept} />
      <ErrorList errors={errors} />
    </Flex>
  );
}

/** The e-invoice intake; a new buyer comes back as a proposal to confirm (the XML travels along as text). */
export function UblImportForm({ options, result, fetcher, find }: { options: PartyOptions; result?: ImportResult | null; fetcher?: AnyFetcher; find?: FindResult | null }) {
  const { t } = useTranslation();
  const showRefusal = useRefusalText();
  const navigation = useNavigation();
  const busy = fetcher ? fetcher.state !== 'idle' : navigation.state === 'submitting' && navigation.formData?.get('intent') === 'import';
  const refused = result && !result.ok ? result : null;
  const searched = searchedFor(find, 'import');
  return (
    <Flex direction="column" gap="3" data-testid="ubl-import">
      <PostForm fetcher={fetcher}>
        <input type="hidden" name="intent" value="import" />
        {fetcher ? <input type="hidden" name="via" value="dialog" /> : null}
        <Flex direction="column" gap="3">
          <Text size="2" color="gray">
            {t('invoices.ubl.hint')}
          </Text>
          <Grid columns={{ initial: '1', sm: '2' }} gap="3">
            <PartySelect
              kind="clients"
              selectProps={{ name: 'clientId', required: true, defaultValue: refused?.clientId ?? searched?.values.clientId ?? '' }}
              options={options}
              searched={searched}
            />
            <FileInput name="xmlFile" label={t('invoices.ubl.file')} accept=".xml,application/xml,text/xml" />
          </Grid>
          {refused && !refused.proposal && refused.message ? <AlertCallout size="1">{showRefusal(refused.message)}</AlertCallout> : null}
          <Flex justify="end">
            <Button type="submit" disabled={busy}>
              {busy ? t('invoices.ubl.importing') : t('invoices.ubl.submit')}
            </Button>
          </Flex>
        </Flex>
      </PostForm>
      {refused?.proposal ? (
        <Callout.Root color="amber" role="alert" data-testid="customer-proposal">
          <Box>
            <Text as="p" weight="medium" mb="2">
              {t('invoices.ubl.proposalTitle')}
            </Text>
            <DataList.Root size="1" mb="3">
              <Fact label={t('invoices.ubl.proposalName')}>{refused.proposal.companyName}</Fact>
              <Fact label="OIB">{refused.proposal.oib}</Fact>
              <Fact label={t('invoices.ubl.proposalAddress')}>
                {[refused.proposal.address, [refused.proposal.postalCode, refused.proposal.city].filter(Boolean).join(' '), refused.proposal.country].filter(Boolean).join(', ')}
              </Fact>
            </DataList.Root>
            <PostForm fetcher={fetcher}>
              <input type="hidden" name="intent" value="import" />
              {fetcher ? <input type="hidden" name="via" value="dialog" /> : null}
              <input type="hidden" name="clientId" value={refused.clientId ?? ''} />
              <input type="hidden" name="createCustomer" value="true" />
              <input type="hidden" name="fileName" value={refused.fileName ?? ''} />
              <textarea name="xmlText" defaultValue={refused.xmlText ?? ''} hidden readOnly />
              <Button type="submit" color="amber" disabled={busy}>
                {t('invoices.ubl.confirmCustomer')}
              </Button>
            </PostForm>
          </Box>
        </Callout.Root>
      ) : null}
    </Flex>
  );
}

/** Without JavaScript (`?new=1`, the header's 'Add Invoice', or after a refused post): both forms on the page. */
export function AddInvoicePanel({ options: pageOptions, actionData, cancelTo }: { options: PartyOptions; actionData?: AddResult | null; cancelTo: string }) {
  const { t } = useTranslation();
  // After a search step the selects list what it found (and what was chosen).
  const find = actionData?.intent === 'find' ? actionData : null;
  const options = find ? find.options : pageOptions;
  return (
    <Card size="3" data-testid="add-invoice-panel">
      <Flex direction="column" gap="4">
        <Flex justify="between" align="center">
          <Heading as="h2" size="4">
            {t('invoices.form.title')}
          </Heading>
          <Button asChild variant="ghost" color="gray">
            <Link to={cancelTo}>{t('invoices.form.cancel')}</Link>
          </Button>
        </Flex>
        <Box>
          <Heading as="h3" size="3" mb="2">
            {t('invoices.form.manualTab')}
          </Heading>
          <ManualInvoiceForm options={options} lastResult={actionData?.intent === 'create' ? actionData.result : undefined} find={find} />
        </Box>
        <Separator size="4" />
        <Box>
          <Heading as="h3" size="3" mb="2">
            {t('invoices.form.ublTab')}
          </Heading>
          <UblImportForm options={options} result={actionData?.intent === 'import' ? actionData : null} find={find} />
        </Box>
      </Flex>
    </Card>
  );
}

/** With JavaScript: the same two forms as tabs of a dialog; closes on success (the server flashes the toast). */
export function AddInvoiceDialog({ options, open, onOpenChange }: { options: PartyOptions; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const manual = useFetcher<CreateResult>({ key: 'add-invoice' });
  const ubl = useFetcher<ImportResult>({ key: 'import-invoice' });
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    if (manual.state !== 'idle' || !manual.data) return;
    if (manual.data.created) {
      onOpenChange(false);
      setFormKey((key) => key + 1);
    } else if (manual.data.result.status === 'error') {
      toast({ title: 'invoices.toast.errorTitle', description: 'invoices.toast.createFailed', variant: 'destructive' });
    }
    // Only a new answer from the server matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [manual.state, manual.data]);
  useEffect(() => {
    if (ubl.state !== 'idle' || !ubl.data) return;
    if (ubl.data.ok) {
      onOpenChange(false);
      setFormKey((key) => key + 1);
    } else if (!ubl.data.proposal) {
      toast({ title: 'invoices.toast.errorTitle', description: 'invoices.toast.importFailed', variant: 'destructive' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ubl.state, ubl.data]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="720px">
        <Dialog.Title as="h2">{t('invoices.form.title')}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {t('invoices.form.dialogDescription')}
        </Dialog.Description>
        <Tabs.Root defaultValue="manual" key={formKey}>
          <Tabs.List>
            <Tabs.Trigger value="manual">{t('invoices.form.manualTab')}</Tabs.Trigger>
            <Tabs.Trigger value="ubl">{t('invoices.form.ublTab')}</Tabs.Trigger>
          </Tabs.List>
          <Box pt="3">
            <Tabs.Content value="manual">
              <ManualInvoiceForm options={options} fetcher={manual} lastResult={manual.data && !manual.data.created ? manual.data.result : undefined} />
            </Tabs.Content>
            <Tabs.Content value="ubl">
              <UblImportForm options={options} fetcher={ubl} result={ubl.data && !ubl.data.ok ? ubl.data : null} />
            </Tabs.Content>
          </Box>
        </Tabs.Root>
        <Flex justify="end" mt="3">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              {t('invoices.form.cancel')}
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
