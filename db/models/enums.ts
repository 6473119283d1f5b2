/**
 * The value sets of the schema's CHECK (... IN (...)) columns, for the models'
 * enum columns (`oneOf`, db/models/columns.ts, which types them as the union of
 * their values) and for form schemas; a list has a named union type where code
 * outside the models names it. The database is the authority; db/schema.test.ts
 * fails when a list here drifts from its constraint.
 */

export const USER_ROLES = ['user', 'manager', 'admin', 'super_admin'] as const;

export const USER_TOKEN_PURPOSES = ['set_password', 'reset_password'] as const;

export const CLIENT_STATUSES = ['active', 'pending', 'inactive'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

export const RISK_CATEGORIES = ['low', 'medium', 'high'] as const;

export const ONBOARDING_STATUSES = ['pending', 'in_progress', 'completed', 'rejected'] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];

export const DOCUMENT_TYPES = ['invoice', 'contract', 'kyc_document', 'financial_statement', 'id_document', 'bank_statement'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const KYC_DOCUMENT_TYPES = ['company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];

export const DOCUMENT_ENTITY_TYPES = ['client', 'customer', 'invoice'] as const;

export const SIGNATURE_STATUSES = ['pending', 'signed', 'rejected'] as const;

/** `charged_back` and `written_off` close a financed invoice unpaid (docs/lifecycle.md#recourse-and-write-off). */
export const INVOICE_STATUSES = ['pending', 'verified', 'approved', 'rejected', 'financed', 'paid', 'charged_back', 'written_off'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_VERIFICATION_STATUSES = ['pending', 'verified', 'failed'] as const;

export const INVOICE_SOURCES = ['manual', 'ubl'] as const;

/** UNTDID 5305 VAT category codes used by EN 16931. */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;

export const RISK_ENTITY_TYPES = ['client', 'customer'] as const;

export const CREDIT_LIMIT_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;

export const PAYMENT_METHODS = ['bank_transfer', 'cash', 'check', 'card'] as const;

export const PAYMENT_STATUSES = ['pending', 'confirmed', 'failed', 'refunded'] as const;

export const PAYMENT_SOURCES = ['manual', 'bank_statement'] as const;

export const PAYOUT_KINDS = ['advance', 'reserve_release'] as const;

export const PAYOUT_STATUSES = ['pending', 'exported', 'paid', 'cancelled'] as const;

export const WORKFLOW_TYPES = ['client_onboarding', 'invoice_verification', 'risk_assessment', 'payment_processing'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];

export const WORKFLOW_INSTANCE_STATUSES = ['running', 'completed', 'failed', 'paused'] as const;

export const WORKFLOW_ENTITY_TYPES = ['client', 'customer', 'invoice', 'payment', 'credit_limit_request'] as const;
export type WorkflowEntityType = (typeof WORKFLOW_ENTITY_TYPES)[number];

/** The business events that start a workflow by themselves (docs/reference-data.md). */
export const WORKFLOW_START_EVENTS = ['invoice_submitted', 'risk_assessment_completed', 'payment_recorded'] as const;
export type WorkflowStartEvent = (typeof WORKFLOW_START_EVENTS)[number];

export const WORKFLOW_STEP_TYPES = ['automated', 'manual'] as const;
export type WorkflowStepType = (typeof WORKFLOW_STEP_TYPES)[number];

export const WORKFLOW_STEP_RUN_STATUSES = ['running', 'waiting', 'completed', 'failed', 'skipped'] as const;

export const TASK_TYPES = ['kyc_verification', 'risk_assessment', 'manual_review', 'document_review', 'customer_contact', 'limit_approval'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_PRIORITIES = ['urgent', 'high', 'medium', 'normal', 'low'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_ENTITY_TYPES = ['client', 'customer', 'invoice', 'payment', 'credit_limit_request', 'document'] as const;
export type TaskEntityType = (typeof TASK_ENTITY_TYPES)[number];

/** The events whose active template goes to the debtor rather than the client: the notice of assignment and the four reminder levels. */
export const DEBTOR_EMAIL_TRIGGERS = ['debtor_notice', 'dunning_1', 'dunning_2', 'dunning_3', 'dunning_4'] as const;
export type DebtorEmailTrigger = (typeof DEBTOR_EMAIL_TRIGGERS)[number];

export const EMAIL_TRIGGERS = ['client_onboarding', 'invoice_verified', 'payment_due', 'payment_overdue', ...DEBTOR_EMAIL_TRIGGERS, 'manual'] as const;
export type EmailTrigger = (typeof EMAIL_TRIGGERS)[number];

export const CAMPAIGN_RECIPIENTS = ['all_clients', 'active_clients', 'specific_clients'] as const;
export type CampaignRecipients = (typeof CAMPAIGN_RECIPIENTS)[number];

export const CAMPAIGN_STATUSES = ['draft', 'active', 'sending', 'completed', 'failed'] as const;

export const EMAIL_LOG_STATUSES = ['queued', 'sent', 'delivered', 'opened', 'clicked', 'failed'] as const;
export type EmailLogStatus = (typeof EMAIL_LOG_STATUSES)[number];

export const INTEGRATION_TYPES = ['hanfa', 'fina', 'sendgrid', 'docusign', 'einvoicing'] as const;

export const INTEGRATION_STATUSES = ['active', 'in_development', 'error', 'inactive', 'testing'] as const;

export const INTEGRATION_MODES = ['sandbox', 'live'] as const;

export const BACKUP_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

export const OUTGOING_EINVOICE_STATUSES = ['pending', 'sent', 'delivered', 'failed'] as const;
export type OutgoingEInvoiceStatus = (typeof OUTGOING_EINVOICE_STATUSES)[number];

export const INCOMING_EINVOICE_STATUSES = ['imported', 'failed'] as const;
export type IncomingEInvoiceStatus = (typeof INCOMING_EINVOICE_STATUSES)[number];

export const AGREEMENT_FEE_MODELS = ['discount_30', 'interest_360', 'interest_365'] as const;
export type AgreementFeeModel = (typeof AGREEMENT_FEE_MODELS)[number];

export const AGREEMENT_SIGNATURE_STATUSES = ['unsigned', 'sent', 'signed'] as const;

export const LEDGER_KINDS = ['advance', 'fee', 'fee_vat', 'collection', 'reserve_release', 'chargeback', 'write_off', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LEDGER_ADJUSTMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type LedgerAdjustmentStatus = (typeof LEDGER_ADJUSTMENT_STATUSES)[number];

export const OUTGOING_EINVOICE_PURPOSES = ['financing_fee', 'fee_completion', 'fee_credit'] as const;
export type OutgoingEInvoicePurpose = (typeof OUTGOING_EINVOICE_PURPOSES)[number];

export const OUTGOING_EINVOICE_TYPE_CODES = ['380', '381'] as const;
export type OutgoingEInvoiceTypeCode = (typeof OUTGOING_EINVOICE_TYPE_CODES)[number];

export const INVOICE_DISPUTE_SOURCES = ['debtor', 'staff'] as const;

export const INVOICE_DISPUTE_OUTCOMES = ['rejected', 'reduced', 'upheld'] as const;

/** A reminder level an invoice reached: sent to the debtor, or skipped with its reason (docs/collections.md#dunning). */
export const DUNNING_NOTICE_STATUSES = ['sent', 'skipped'] as const;
export type DunningNoticeStatus = (typeof DUNNING_NOTICE_STATUSES)[number];

export const DUNNING_SKIP_REASONS = ['no_email', 'no_template'] as const;
export type DunningSkipReason = (typeof DUNNING_SKIP_REASONS)[number];

export const WRITE_OFF_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WriteOffRequestStatus = (typeof WRITE_OFF_REQUEST_STATUSES)[number];
export const CREDIT_NOTE_SOURCES = ['ubl', 'manual', 'dispute'] as const;
export type CreditNoteSource = (typeof CREDIT_NOTE_SOURCES)[number];

/** What a row of open_book_totals (and open_book_deltas) sums the factor's open book by (docs/collections.md#ageing). */
export const OPEN_BOOK_SCOPES = ['client', 'customer', 'due_date'] as const;
export type OpenBookScope = (typeof OPEN_BOOK_SCOPES)[number];
/** The days such a row sums: every day, or one calendar year or month. */
export const OPEN_BOOK_PERIODS = ['all', 'year', 'month'] as const;
/** Why a notice of assignment was written: a pair's first financing, or staff asking the debtor to confirm (docs/collections.md). */
export const DEBTOR_NOTICE_OCCASIONS = ['financing', 'request'] as const;
export type DebtorNoticeOccasion = (typeof DEBTOR_NOTICE_OCCASIONS)[number];

export const DEBTOR_ANSWER_KINDS = ['confirmed', 'disputed'] as const;

/** Why a link asking the applicant for more documents no longer works (app/onboarding/kyc-decision.server.ts). */
export const KYC_REQUEST_SPENT_REASONS = ['submitted', 'superseded', 'decided'] as const;

/** Every enum column of the schema with its allowed values (used by the schema test). */
export const ENUM_COLUMNS: ReadonlyArray<readonly [table: string, column: string, values: readonly string[]]> = [
  ['users', 'role', USER_ROLES],
  ['user_tokens', 'purpose', USER_TOKEN_PURPOSES],
  ['clients', 'status', CLIENT_STATUSES],
  ['clients', 'risk_category', RISK_CATEGORIES],
  ['clients', 'onboarding_status', ONBOARDING_STATUSES],
  ['customers', 'risk_category', RISK_CATEGORIES],
  ['documents', 'type', DOCUMENT_TYPES],
  ['documents', 'kyc_type', KYC_DOCUMENT_TYPES],
  ['documents', 'entity_type', DOCUMENT_ENTITY_TYPES],
  ['documents', 'signature_status', SIGNATURE_STATUSES],
  ['invoices', 'status', INVOICE_STATUSES],
  ['invoices', 'verification_status', INVOICE_VERIFICATION_STATUSES],
  ['invoices', 'source', INVOICE_SOURCES],
  ['invoice_lines', 'vat_category', VAT_CATEGORIES],
  ['risk_assessments', 'entity_type', RISK_ENTITY_TYPES],
  ['risk_assessments', 'category', RISK_CATEGORIES],
  ['credit_limit_requests', 'status', CREDIT_LIMIT_STATUSES],
  ['payments', 'payment_method', PAYMENT_METHODS],
  ['payments', 'status', PAYMENT_STATUSES],
  ['payments', 'source', PAYMENT_SOURCES],
  ['payouts', 'kind', PAYOUT_KINDS],
  ['payouts', 'status', PAYOUT_STATUSES],
  ['workflow_definitions', 'type', WORKFLOW_TYPES],
  ['workflow_instances', 'status', WORKFLOW_INSTANCE_STATUSES],
  ['workflow_instances', 'entity_type', WORKFLOW_ENTITY_TYPES],
  ['workflow_instances', 'start_event', WORKFLOW_START_EVENTS],
  ['workflow_step_runs', 'step_type', WORKFLOW_STEP_TYPES],
  ['workflow_step_runs', 'status', WORKFLOW_STEP_RUN_STATUSES],
  ['tasks', 'type', TASK_TYPES],
  ['tasks', 'priority', TASK_PRIORITIES],
  ['tasks', 'status', TASK_STATUSES],
  ['tasks', 'entity_type', TASK_ENTITY_TYPES],
  ['email_templates', 'trigger', EMAIL_TRIGGERS],
  ['email_campaigns', 'recipients', CAMPAIGN_RECIPIENTS],
  ['email_campaigns', 'status', CAMPAIGN_STATUSES],
  ['email_logs', 'status', EMAIL_LOG_STATUSES],
  ['integrations', 'type', INTEGRATION_TYPES],
  ['integrations', 'status', INTEGRATION_STATUSES],
  ['integrations', 'mode', INTEGRATION_MODES],
  ['backups', 'status', BACKUP_STATUSES],
  ['outgoing_einvoices', 'status', OUTGOING_EINVOICE_STATUSES],
  ['incoming_einvoices', 'status', INCOMING_EINVOICE_STATUSES],
  ['kyc_document_requests', 'spent_reason', KYC_REQUEST_SPENT_REASONS],
  ['agreements', 'fee_model', AGREEMENT_FEE_MODELS],
  ['agreements', 'signature_status', AGREEMENT_SIGNATURE_STATUSES],
  ['client_ledger', 'kind', LEDGER_KINDS],
  ['ledger_adjustments', 'status', LEDGER_ADJUSTMENT_STATUSES],
  ['outgoing_einvoices', 'purpose', OUTGOING_EINVOICE_PURPOSES],
  ['outgoing_einvoices', 'type_code', OUTGOING_EINVOICE_TYPE_CODES],
  ['debtor_notices', 'occasion', DEBTOR_NOTICE_OCCASIONS],
  ['debtor_answers', 'answer', DEBTOR_ANSWER_KINDS],
  ['invoice_disputes', 'source', INVOICE_DISPUTE_SOURCES],
  ['invoice_disputes', 'outcome', INVOICE_DISPUTE_OUTCOMES],
  ['dunning_notices', 'status', DUNNING_NOTICE_STATUSES],
  ['dunning_notices', 'skip_reason', DUNNING_SKIP_REASONS],
  ['write_off_requests', 'status', WRITE_OFF_REQUEST_STATUSES],
  ['credit_notes', 'source', CREDIT_NOTE_SOURCES],
  ['open_book_totals', 'scope', OPEN_BOOK_SCOPES],
  ['open_book_deltas', 'scope', OPEN_BOOK_SCOPES],
  ['open_book_totals', 'period', OPEN_BOOK_PERIODS],
  ['open_book_deltas', 'period', OPEN_BOOK_PERIODS],
];
