import { selectOne, selectRows } from '../../db.server.ts';
import { sendMail } from '../../email/mailer.server.ts';
import { sendTriggeredEmail } from '../../email/send.server.ts';
import { activeTemplateFor } from '../../email/templates.server.ts';
import { getEnv } from '../../env.server.ts';
import { getFina } from '../../integrations/fina.server.ts';
import { assessEntity } from '../../risk/assessments.server.ts';
import { PermanentStepError } from '../step-errors.server.ts';
import type { StepContext, StepOutcome } from '../types.ts';
import type { Client, Customer, Document, Invoice, RiskAssessment } from '../../../db/models/index.ts';
import type { RowOf } from '../../../db/models/rows.ts';

/** Handlers about the client or customer of an instance (onboarding, periodic risk assessment). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KYC_TYPES = ['company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id'] as const;

interface Party {
  entityType: 'client' | 'customer';
  id: string;
  companyName: string;
  email: string | null;
}

/** The client or customer a step is about: the instance's entity, or an invoice's customer. */
export async function partyOf({ instance, transaction }: StepContext, { invoiceParty = 'customer' }: { invoiceParty?: 'client' | 'customer' } = {}): Promise<Party> {
  let entityType = instance.entityType;
  let id = instance.entityId;
  if (entityType === 'invoice' || entityType === 'payment') {
    const invoice = await selectOne<RowOf<typeof Invoice, 'client_id' | 'customer_id'>>(
      entityType === 'invoice'
        ? `SELECT client_id, customer_id FROM invoices WHERE id = :id`
        : `SELECT i.client_id, i.customer_id FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = :id`,
      { id },
      { transaction },
    );
    if (!invoice) throw new PermanentStepError(`${entityType === 'invoice' ? 'Invoice' : 'Payment'} ${id} not found`);
    entityType = invoiceParty;
    id = invoiceParty === 'client' ? invoice.client_id : invoice.customer_id;
  }
  if (entityType !== 'client' && entityType !== 'customer') throw new PermanentStepError(`This step needs a client or customer, not a ${entityType}`);
  const row = await selectOne<RowOf<typeof Client | typeof Customer, 'company_name' | 'email'>>(
    `SELECT company_name, email FROM ${entityType === 'client' ? 'clients' : 'customers'} WHERE id = :id`,
    { id },
    { transaction },
  );
  if (!row) throw new PermanentStepError(`${entityType === 'client' ? 'Client' : 'Customer'} ${id} not found`);
  return { entityType, id, companyName: row.company_name, email: row.email?.trim() || null };
}

/**
 * Which of the five KYC documents the client has on file. Missing ones do not
 * fail the step: the KYC reviewer sees them here and decides, and can ask the
 * applicant for them (a client entered by staff starts with none).
 */
export async function checkDocuments(context: StepContext): Promise<StepOutcome> {
  const party = await partyOf(context);
  const rows = await selectRows<{ kyc_type: NonNullable<RowOf<typeof Document>['kyc_type']>; n: number }>(
    `SELECT kyc_type, count(*)::int AS n FROM documents
      WHERE entity_type = :entityType AND entity_id = :id AND kyc_type IS NOT NULL GROUP BY kyc_type`,
    { entityType: party.entityType, id: party.id },
    { transaction: context.transaction },
  );
  const present = KYC_TYPES.filter((type) => rows.some((row) => row.kyc_type === type));
  const missing = KYC_TYPES.filter((type) => !present.includes(type));
  return {
    summary: `KYC documents present: ${present.length} of ${KYC_TYPES.length}${missing.length ? ` (missing: ${missing.join(', ')})` : ''}`,
    present,
    missing,
    complete: missing.length === 0,
  };
}

/**
 * The FINA company and account check. The FINA integration is not built yet:
 * the step records that the check was not performed (no invented result) and
 * lets the reviewer see it in the step history.
 */
export async function finaCheck(context: StepContext): Promise<StepOutcome> {
  const party = await partyOf(context);
  const row = await selectOne<RowOf<typeof Client | typeof Customer, 'oib'>>(
    `SELECT oib FROM ${party.entityType === 'client' ? 'clients' : 'customers'} WHERE id = :id`,
    { id: party.id },
    { transaction: context.transaction },
  );
  if (!row) throw new PermanentStepError(`${party.entityType} ${party.id} no longer exists`);
  // Read-only calls to the financial agency (each one logged by the adapter). The outcome goes into
  // the step history for the KYC reviewer; an unreachable agency does not hold up the onboarding.
  let company: Awaited<ReturnType<ReturnType<typeof getFina>['companyByOib']>>;
  let blockage: Awaited<ReturnType<ReturnType<typeof getFina>['accountBlockage']>>;
  try {
    const fina = getFina();
    [company, blockage] = await Promise.all([fina.companyByOib(row.oib), fina.accountBlockage(row.oib)]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { summary: `not performed: FINA check failed (${reason})`, performed: false, entityType: party.entityType, entityId: party.id };
  }
  const findings = [
    blockage.blocked ? `account BLOCKED (${blockage.reason ?? 'no reason given'})` : 'account not blocked',
    company.status === 'active' ? 'company active' : `company ${company.status}`,
  ];
  return {
    summary: `FINA: ${company.name}: ${findings.join(', ')}`,
    performed: true,
    attention: blockage.blocked || company.status !== 'active',
    entityType: party.entityType,
    entityId: party.id,
    company: { name: company.name, address: company.address, founded: company.founded },
    blockage,
  };
}

/** The HANFA check, likewise not available until the HANFA integration exists. */
export async function hanfaCheck(context: StepContext): Promise<StepOutcome> {
  const party = await partyOf(context);
  return { summary: 'not performed: HANFA integration not configured', performed: false, entityType: party.entityType, entityId: party.id };
}

/**
 * An automatic assessment of the party as its book stands now (reason
 * on_demand, by the system). An instance started by an assessment request
 * (context.assessmentId, app/risk/assessments.server.ts requestAssessment)
 * reports that assessment instead: a second one would only repeat it.
 */
export async function riskAssessment(context: StepContext): Promise<StepOutcome> {
  const party = await partyOf(context);
  const requested = context.instance.context?.assessmentId;
  if (typeof requested === 'string' && UUID.test(requested)) {
    const existing = await selectOne<RowOf<typeof RiskAssessment, 'id' | 'score' | 'category'>>(
      `SELECT id, score, category FROM risk_assessments WHERE id = :id AND entity_type = :entityType AND entity_id = :entityId`,
      { id: requested, entityType: party.entityType, entityId: party.id },
      { transaction: context.transaction },
    );
    if (existing) {
      return {
        summary: `assessed ${party.companyName} by the request that started this workflow: ${existing.score}/100 (${existing.category})`,
        assessmentId: existing.id,
        score: existing.score,
        category: existing.category,
        requested: true,
      };
    }
  }
  const assessment = await assessEntity(
    { entityType: party.entityType, entityId: party.id, actor: null, reason: 'on_demand', notes: `Workflow ${context.instance.workflowType}` },
    { transaction: context.transaction },
  );
  return {
    summary: `${context.dryRun ? 'would assess' : 'assessed'} ${party.companyName}: ${assessment.score}/100 (${assessment.category})`,
    assessmentId: context.dryRun ? null : assessment.id,
    score: assessment.score,
    category: assessment.category,
  };
}

/**
 * The client_onboarding email: the trigger's active template when there is one
 * (its log row written in the step's transaction, the send job after commit),
 * otherwise a plain system mail.
 */
export async function sendWelcomeEmail(context: StepContext): Promise<StepOutcome> {
  const party = await partyOf(context, { invoiceParty: 'client' });
  if (!party.email) return { summary: 'skipped: the client has no email address', sent: false };
  if (party.entityType === 'client' && (await activeTemplateFor('client_onboarding', context.transaction))) {
    if (context.dryRun) return { summary: `would queue the client_onboarding template to ${party.email}`, to: party.email, sent: false };
    const outcome = await sendTriggeredEmail('client_onboarding', { clientId: party.id }, context.transaction);
    return outcome.queued
      ? { summary: `queued the client_onboarding template to ${outcome.to}`, to: outcome.to, emailLogId: outcome.logId, sent: true }
      : { summary: `skipped: ${outcome.reason}`, sent: false };
  }
  const mail = {
    to: party.email,
    subject: 'Dobrodošli u FinFlow / Welcome to FinFlow',
    text: [
      `Poštovani, ${party.companyName},`,
      '',
      'vaša registracija je odobrena i pristup platformi za faktoring je aktivan.',
      `Prijava: ${getEnv().APP_URL}`,
      '',
      `Dear ${party.companyName}, your registration is approved and your access to the factoring platform is active.`,
    ].join('\n'),
  };
  return sendOrDescribe(context, mail, 'welcome email');
}

/** Sends `mail` (last in a handler, so a failure before it sends nothing), or in a dry run says it would. */
export async function sendOrDescribe(context: StepContext, mail: { to: string; subject: string; text: string }, what: string): Promise<StepOutcome> {
  if (context.dryRun) return { summary: `would send the ${what} to ${mail.to}`, to: mail.to, subject: mail.subject, sent: false };
  const { messageId } = await sendMail(mail);
  return { summary: `sent the ${what} to ${mail.to}`, to: mail.to, subject: mail.subject, messageId, sent: true };
}
