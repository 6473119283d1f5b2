import type { Transaction } from 'sequelize';
import type { WorkflowStepDef } from '../instances.server.ts';
import { HANDLER_NAMES, type HandlerName, type WorkflowType } from '../schemas.ts';
import { checkDocuments, finaCheck, hanfaCheck, riskAssessment, sendWelcomeEmail } from './parties.server.ts';
import { checkDuplicateInvoice, sendInvoiceVerifiedEmail, validateInvoice } from './invoices.server.ts';
import { matchPayment, releaseReserve, sendPaymentConfirmation } from './payments.server.ts';
import { TEST_HANDLERS } from './test-handlers.server.ts';

/**
 * The step handlers a definition can name. A handler runs inside the step's
 * transaction and passes it to every domain call, so its effect commits
 * together with the step's 'completed' mark (or not at all). It returns what
 * it did (`summary` plus details), which becomes the step run's outcome; in a
 * dry run (`dryRun`, the transaction is rolled back afterwards) it describes
 * what it would do and must not reach outside the database (no mail).
 */
export interface StepContext {
  instance: { id: string; workflowType: WorkflowType; entityType: string; entityId: string; context: Record<string, unknown> };
  step: WorkflowStepDef;
  stepIndex: number;
  transaction: Transaction;
  dryRun: boolean;
}

export interface StepOutcome {
  summary: string;
  [detail: string]: unknown;
}

export type StepHandler = (context: StepContext) => Promise<StepOutcome>;

/** A failure that a retry cannot cure (no documents, a duplicate invoice): the instance fails at once, restart after fixing. */
export class PermanentStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentStepError';
  }
}

/** A readable message for anything a handler threw; a domain module's API error Response gives its JSON message. */
export async function describeError(error: unknown): Promise<string> {
  if (error instanceof Response) {
    const text = await error.clone().text().catch(() => '');
    try {
      return `${error.status}: ${(JSON.parse(text) as { message?: string }).message ?? text}`;
    } catch {
      return `${error.status}: ${text || error.statusText}`;
    }
  }
  return error instanceof Error ? error.message : String(error);
}

/** Retrying cannot change a domain refusal (400/404/409…); it fails the step at once, like PermanentStepError. */
export function isPermanent(error: unknown): boolean {
  return error instanceof PermanentStepError || (error instanceof Response && error.status >= 400 && error.status < 500);
}

const HANDLERS: Record<HandlerName, StepHandler> = {
  checkDocuments,
  finaCheck,
  riskAssessment,
  sendWelcomeEmail,
  validateInvoice,
  checkDuplicateInvoice,
  sendInvoiceVerifiedEmail,
  hanfaCheck,
  matchPayment,
  releaseReserve,
  sendPaymentConfirmation,
};

/** Handlers that exist only for the engine's own tests (blocking, failing on demand). */
function testHandlersEnabled(): boolean {
  return process.env.NODE_ENV === 'test' && process.env.FINFLOW_TEST_HANDLERS === '1';
}

export function getHandler(name: string): StepHandler | undefined {
  if (Object.hasOwn(HANDLERS, name)) return HANDLERS[name as HandlerName];
  if (testHandlersEnabled() && Object.hasOwn(TEST_HANDLERS, name)) return TEST_HANDLERS[name];
  return undefined;
}

/** Every handler name a definition may use here (the editor's choices). */
export function handlerNames(): string[] {
  return [...HANDLER_NAMES, ...(testHandlersEnabled() ? Object.keys(TEST_HANDLERS) : [])];
}
