import type { ReferenceRowIds } from '../../reference-data.ts';
import type { Clock, Random } from './plumbing.ts';
import { riskCategory } from './croatia.ts';
import type { StaffSet } from './staff.ts';
import { type Book, Context } from './context.ts';
import { buildClients, buildCustomers } from './parties.ts';
import { buildInvoices } from './invoices.ts';
import { buildCredit, buildDebtorLimits } from './credit.ts';
import { RiskBook } from './risk.ts';
import { buildDocuments } from './documents.ts';
import { TaskBook, buildDailyTasks } from './tasks.ts';
import { buildWorkflows } from './workflows.ts';
import { buildEmail } from './email.ts';
import { buildIntegrations } from './integrations.ts';
import { buildActivity } from './activity.ts';

// ---------------------------------------------------------------------------
// The book, part by part: the order of the calls is the order of the draws from the PRNG.

export function buildBook(random: Random, clock: Clock, staff: StaffSet, reference: ReferenceRowIds): Book {
  const ctx = new Context(random, clock, staff);
  const clients = buildClients(ctx);
  const customers = buildCustomers(ctx, clients);
  const ledger = buildInvoices(ctx, clients, customers);
  const credit = buildCredit(ctx, clients, ledger.invoices, customers);
  const risk = new RiskBook(ctx);
  risk.assessHistory(clients, customers);
  const documents = buildDocuments(ctx, clients, customers, ledger.invoices);
  const tasks = new TaskBook(ctx);
  const workflows = buildWorkflows(ctx, { clients, customers, ledger, risk, tasks }, reference);
  buildDailyTasks(ctx, tasks, { clients, customers, invoices: ledger.invoices, documents: documents.rows, credit });
  const email = buildEmail(ctx, clients, ledger.invoices, reference);
  const integrations = buildIntegrations(ctx, reference);
  // After the rest (its own PRNG, its ids last), so the other tables stay as they were.
  buildDebtorLimits(ctx, customers, ledger.invoices, credit);
  const activity = buildActivity(ctx);

  // Clients' and customers' current risk score is their latest assessment.
  for (const party of [...clients, ...customers]) {
    party.row.risk_score = party.riskScore;
    party.row.risk_category = party.riskScore === null ? null : riskCategory(party.riskScore);
  }

  return {
    files: documents.files,
    lastLogins: activity.lastLogins,
    tables: [
      ['clients', clients.map((client) => client.row)],
      ['customers', customers.map((customer) => customer.row)],
      ['documents', documents.rows],
      ['agreements', clients.flatMap((client) => client.agreements.map((agreement) => agreement.row))],
      ['invoices', ledger.invoices.map((invoice) => invoice.row)],
      ['invoice_lines', ledger.lines],
      ['risk_assessments', risk.rows],
      ['credit_limit_requests', credit.rows],
      ['payments', ledger.payments],
      ['payouts', ledger.payouts],
      ['workflow_instances', workflows.instances],
      ['workflow_step_runs', workflows.runs],
      ['tasks', tasks.rows],
      ['email_templates', email.newTemplates],
      ['email_campaigns', email.campaigns],
      ['email_logs', email.logs],
      ['integration_logs', integrations.logs],
      ['activity_logs', activity.rows],
    ],
    updates: [
      ['workflow_definitions', workflows.definitions],
      ['email_templates', email.referenceTemplates],
      ['integrations', integrations.integrations],
    ],
  };
}
