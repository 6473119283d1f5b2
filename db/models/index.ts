import type { Sequelize } from 'sequelize';
import { getSequelize } from '../connection.ts';
import * as classes from './all.ts';
import {
  ActivityLog,
  Agreement,
  Backup,
  Client,
  CreditLimitRequest,
  CreditNote,
  Customer,
  DebtorAnswer,
  DebtorLink,
  DebtorNotice,
  Document,
  DunningHold,
  DunningNotice,
  EmailAttachment,
  EmailCampaign,
  EmailLog,
  EmailTemplate,
  IncomingEInvoice,
  Integration,
  IntegrationLog,
  Invoice,
  InvoiceDispute,
  InvoiceLine,
  LedgerAdjustment,
  LedgerEntry,
  OutgoingEInvoice,
  Payment,
  Payout,
  RiskAssessment,
  Session,
  Task,
  User,
  UserToken,
  WorkflowDefinition,
  WorkflowInstance,
  WorkflowStepRun,
  WriteOffRequest,
} from './all.ts';

/*
 * Models map the migration's tables and nothing more: no allowNull, no
 * validators and no column defaults (except JS-generated UUID ids, so an id is
 * known before the insert and bulkCreate returns it). NOT NULL, CHECKs and
 * defaults live in the database, which fills them in and returns them from
 * create() (bulkCreate only with returning: true). Never call
 * sequelize.sync(); migrations own the schema.
 *
 * Money (DECIMAL) reads back as an exact string. Model.sum/min/max would
 * parseFloat it: aggregate money with sequelize.fn('sum', ...) and raw: true.
 */

const models = { ...classes };
export * from './all.ts';
export * from './enums.ts';

export type Models = typeof models;

function associate() {
  // Sign-in
  User.hasMany(Session, { as: 'sessions', foreignKey: 'userId' });
  Session.belongsTo(User, { as: 'user', foreignKey: 'userId' });
  User.hasMany(UserToken, { as: 'tokens', foreignKey: 'userId' });
  UserToken.belongsTo(User, { as: 'user', foreignKey: 'userId' });

  // Parties
  Client.belongsTo(User, { as: 'creator', foreignKey: 'createdBy' });
  Customer.belongsTo(User, { as: 'creator', foreignKey: 'createdBy' });

  // Invoices and their money
  Client.hasMany(Invoice, { as: 'invoices', foreignKey: 'clientId' });
  Invoice.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });
  Customer.hasMany(Invoice, { as: 'invoices', foreignKey: 'customerId' });
  Invoice.belongsTo(Customer, { as: 'customer', foreignKey: 'customerId' });
  Invoice.belongsTo(Document, { as: 'ublDocument', foreignKey: 'ublDocumentId' });
  Invoice.hasMany(InvoiceLine, { as: 'lines', foreignKey: 'invoiceId' });
  InvoiceLine.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Invoice.hasMany(Payment, { as: 'payments', foreignKey: 'invoiceId' });
  Payment.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Payment.belongsTo(User, { as: 'recorder', foreignKey: 'recordedBy' });
  Payment.belongsTo(User, { as: 'processor', foreignKey: 'processedBy' });
  Invoice.hasMany(Payout, { as: 'payouts', foreignKey: 'invoiceId' });
  Payout.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Client.hasMany(Payout, { as: 'payouts', foreignKey: 'clientId' });
  Payout.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });

  // E-invoices: the fee e-invoice of a financed invoice, and documents received from the intermediary
  Invoice.hasMany(OutgoingEInvoice, { as: 'feeEInvoices', foreignKey: 'invoiceId' });
  Invoice.hasMany(InvoiceDispute, { as: 'disputes', foreignKey: 'invoiceId' });
  InvoiceDispute.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Invoice.hasMany(DunningNotice, { as: 'dunningNotices', foreignKey: 'invoiceId' });
  DunningNotice.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Invoice.hasMany(DunningHold, { as: 'dunningHolds', foreignKey: 'invoiceId' });
  DunningHold.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Invoice.hasMany(WriteOffRequest, { as: 'writeOffRequests', foreignKey: 'invoiceId' });
  WriteOffRequest.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  Invoice.hasMany(CreditNote, { as: 'creditNotes', foreignKey: 'invoiceId' });
  CreditNote.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  // The debtor's side: notices of assignment, its links and answers (docs/collections.md)
  DebtorLink.belongsTo(DebtorNotice, { as: 'notice', foreignKey: 'noticeId' });
  DebtorLink.hasMany(DebtorAnswer, { as: 'answers', foreignKey: 'linkId' });
  DebtorAnswer.belongsTo(DebtorLink, { as: 'link', foreignKey: 'linkId' });
  DebtorAnswer.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  OutgoingEInvoice.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  OutgoingEInvoice.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });
  OutgoingEInvoice.belongsTo(User, { as: 'creator', foreignKey: 'createdBy' });
  IncomingEInvoice.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });

  // The factoring contract and the client's account
  Client.hasMany(Agreement, { as: 'agreements', foreignKey: 'clientId' });
  Agreement.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });
  Invoice.belongsTo(Agreement, { as: 'agreement', foreignKey: 'agreementId' });
  Client.hasMany(LedgerEntry, { as: 'ledger', foreignKey: 'clientId' });
  LedgerEntry.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  LedgerAdjustment.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });

  // Credit limits
  Client.hasMany(CreditLimitRequest, { as: 'creditLimitRequests', foreignKey: 'clientId' });
  CreditLimitRequest.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });
  Customer.hasMany(CreditLimitRequest, { as: 'creditLimitRequests', foreignKey: 'customerId' });
  CreditLimitRequest.belongsTo(Customer, { as: 'customer', foreignKey: 'customerId' });
  CreditLimitRequest.belongsTo(User, { as: 'requester', foreignKey: 'requestedBy' });
  CreditLimitRequest.belongsTo(User, { as: 'decider', foreignKey: 'decidedBy' });

  // Documents and risk assessments hang off an entity by (entity_type, entity_id),
  // which the database cannot reference: scoped, without constraints.
  Document.belongsTo(User, { as: 'uploader', foreignKey: 'uploadedBy' });
  Document.belongsTo(User, { as: 'signer', foreignKey: 'signedBy' });
  const polymorphic = (entityType: string) => ({ foreignKey: 'entityId', scope: { entityType }, constraints: false });
  Client.hasMany(Document, { as: 'documents', ...polymorphic('client') });
  Customer.hasMany(Document, { as: 'documents', ...polymorphic('customer') });
  Invoice.hasMany(Document, { as: 'documents', ...polymorphic('invoice') });
  Client.hasMany(RiskAssessment, { as: 'riskAssessments', ...polymorphic('client') });
  Customer.hasMany(RiskAssessment, { as: 'riskAssessments', ...polymorphic('customer') });
  RiskAssessment.belongsTo(User, { as: 'assessor', foreignKey: 'assessedBy' });
  RiskAssessment.belongsTo(User, { as: 'adjuster', foreignKey: 'adjustedBy' });

  // Workflows and tasks
  WorkflowDefinition.hasMany(WorkflowInstance, { as: 'instances', foreignKey: 'workflowId' });
  WorkflowInstance.belongsTo(WorkflowDefinition, { as: 'workflow', foreignKey: 'workflowId' });
  WorkflowInstance.hasMany(WorkflowStepRun, { as: 'stepRuns', foreignKey: 'instanceId' });
  WorkflowStepRun.belongsTo(WorkflowInstance, { as: 'instance', foreignKey: 'instanceId' });
  WorkflowInstance.hasMany(Task, { as: 'tasks', foreignKey: 'workflowInstanceId' });
  Task.belongsTo(WorkflowInstance, { as: 'workflowInstance', foreignKey: 'workflowInstanceId' });
  User.hasMany(Task, { as: 'assignedTasks', foreignKey: 'assignedTo' });
  Task.belongsTo(User, { as: 'assignee', foreignKey: 'assignedTo' });
  Task.belongsTo(User, { as: 'creator', foreignKey: 'createdBy' });

  // Email
  EmailTemplate.hasMany(EmailCampaign, { as: 'campaigns', foreignKey: 'templateId' });
  EmailCampaign.belongsTo(EmailTemplate, { as: 'template', foreignKey: 'templateId' });
  EmailCampaign.hasMany(EmailLog, { as: 'logs', foreignKey: 'campaignId' });
  EmailLog.belongsTo(EmailCampaign, { as: 'campaign', foreignKey: 'campaignId' });
  EmailLog.belongsTo(EmailTemplate, { as: 'template', foreignKey: 'templateId' });
  EmailLog.belongsTo(Client, { as: 'client', foreignKey: 'clientId' });
  EmailLog.belongsTo(Customer, { as: 'customer', foreignKey: 'customerId' });
  EmailLog.belongsTo(Invoice, { as: 'invoice', foreignKey: 'invoiceId' });
  EmailLog.hasMany(EmailAttachment, { as: 'attachments', foreignKey: 'emailLogId' });
  EmailAttachment.belongsTo(Document, { as: 'document', foreignKey: 'documentId' });

  // Integrations and audit
  Integration.hasMany(IntegrationLog, { as: 'logs', foreignKey: 'integrationId' });
  IntegrationLog.belongsTo(Integration, { as: 'integration', foreignKey: 'integrationId' });
  ActivityLog.belongsTo(User, { as: 'user', foreignKey: 'userId' });
  Backup.belongsTo(User, { as: 'requester', foreignKey: 'requestedBy' });
}

// Model classes are module-level singletons, so they can be bound to only one
// Sequelize at a time; calling initModels with another instance rebinds them.
let boundTo: Sequelize | undefined;

/** Binds every model to `sequelize` and declares the associations (once per instance). */
export function initModels(sequelize: Sequelize): Models {
  if (boundTo === sequelize) return models;
  for (const model of Object.values(models)) model.initModel(sequelize);
  associate();
  boundTo = sequelize;
  return models;
}

/** The models bound to the process-wide pool: `const { Client } = getModels()`. */
export function getModels(): Models {
  // getSequelize() is memoized itself; after closeSequelize() it returns a new
  // pool, and the models follow it.
  return initModels(getSequelize());
}
