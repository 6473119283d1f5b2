import type { MigrationModule } from '../migrate.ts';
import * as initialSchema from './2026.11.22T07.00.00.initial-schema.ts';
import * as authThrottle from './2026.11.22T08.00.00.auth-throttle.ts';
import * as documentUploads from './2026.11.22T09.00.00.document-uploads.ts';
import * as registrationDrafts from './2026.11.22T09.30.00.registration-drafts.ts';
import * as bankStatements from './2026.11.22T10.00.00.bank-statements.ts';
import * as outgoingEInvoices from './2026.11.22T11.00.00.outgoing-einvoices.ts';
import * as invoiceSummaries from './2026.11.22T12.00.00.invoice-summaries.ts';
import * as backups from './2026.11.22T11.30.00.backups.ts';
import * as referenceData from './2026.11.25T01.00.00.reference-data.ts';
import * as invoiceNumberSearch from './2026.11.25T05.00.00.invoice-number-search.ts';
import * as kycDecision from './2026.11.25T02.00.00.kyc-decision.ts';
import * as einvoiceRuleFailures from './2026.11.25T10.00.00.einvoice-rule-failures.ts';
import * as factoringContract from './2026.11.27T01.00.00.factoring-contract.ts';
import * as debtorSide from './2026.11.27T20.00.00.debtor-side.ts';
import * as debtorLinks from './2026.11.27T20.10.00.debtor-links.ts';
import * as dunning from './2026.11.27T20.20.00.dunning.ts';
import * as recourseWriteOff from './2026.11.27T20.30.00.recourse-write-off.ts';
import * as creditNotes from './2026.11.27T20.40.00.credit-notes.ts';
import * as ageingIndexes from './2026.11.27T20.50.00.ageing-indexes.ts';
import * as openBook from './2026.11.28T01.00.00.open-book.ts';
import * as clientAdvanceChanges from './2026.11.28T03.00.00.client-advance-changes.ts';
import * as payableTotal from './2026.11.28T09.00.00.payable-total.ts';
import * as clientBookTotals from './2026.11.28T11.00.00.client-book-totals.ts';
import * as clientMonthStart from './2026.11.28T11.10.00.client-month-start.ts';
import * as searchIndexUpkeep from './2026.11.28T19.00.00.search-index-upkeep.ts';
import * as workflowAndTaskTotals from './2026.11.29T08.00.00.workflow-and-task-totals.ts';
import * as emailLogTotals from './2026.11.29T10.00.00.email-log-totals.ts';
import * as workflowFinishMonths from './2026.11.29T11.00.00.workflow-finish-months.ts';

/**
 * Every migration in the order it runs. Listed explicitly (not globbed) so the
 * list is the same in the web bundle, the worker and the tests. Add new ones
 * at the end; never edit one that has shipped.
 */
export const migrations: Array<{ name: string; module: MigrationModule }> = [
  { name: '2026.11.22T07.00.00.initial-schema', module: initialSchema },
  { name: '2026.11.22T08.00.00.auth-throttle', module: authThrottle },
  { name: '2026.11.22T09.00.00.document-uploads', module: documentUploads },
  { name: '2026.11.22T09.30.00.registration-drafts', module: registrationDrafts },
  { name: '2026.11.22T10.00.00.bank-statements', module: bankStatements },
  { name: '2026.11.22T11.00.00.outgoing-einvoices', module: outgoingEInvoices },
  { name: '2026.11.22T12.00.00.invoice-summaries', module: invoiceSummaries },
  { name: '2026.11.22T11.30.00.backups', module: backups },
  { name: '2026.11.25T01.00.00.reference-data', module: referenceData },
  { name: '2026.11.25T05.00.00.invoice-number-search', module: invoiceNumberSearch },
  { name: '2026.11.25T02.00.00.kyc-decision', module: kycDecision },
  { name: '2026.11.25T10.00.00.einvoice-rule-failures', module: einvoiceRuleFailures },
  { name: '2026.11.27T01.00.00.factoring-contract', module: factoringContract },
  { name: '2026.11.27T20.00.00.debtor-side', module: debtorSide },
  { name: '2026.11.27T20.10.00.debtor-links', module: debtorLinks },
  { name: '2026.11.27T20.20.00.dunning', module: dunning },
  { name: '2026.11.27T20.30.00.recourse-write-off', module: recourseWriteOff },
  { name: '2026.11.27T20.40.00.credit-notes', module: creditNotes },
  { name: '2026.11.27T20.50.00.ageing-indexes', module: ageingIndexes },
  { name: '2026.11.28T01.00.00.open-book', module: openBook },
  { name: '2026.11.28T03.00.00.client-advance-changes', module: clientAdvanceChanges },
  { name: '2026.11.28T09.00.00.payable-total', module: payableTotal },
  { name: '2026.11.28T11.00.00.client-book-totals', module: clientBookTotals },
  { name: '2026.11.28T11.10.00.client-month-start', module: clientMonthStart },
  { name: '2026.11.28T19.00.00.search-index-upkeep', module: searchIndexUpkeep },
  { name: '2026.11.29T08.00.00.workflow-and-task-totals', module: workflowAndTaskTotals },
  { name: '2026.11.29T10.00.00.email-log-totals', module: emailLogTotals },
  { name: '2026.11.29T11.00.00.workflow-finish-months', module: workflowFinishMonths },
];
