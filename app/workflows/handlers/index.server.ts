import { HANDLER_NAMES, type HandlerName } from '../schemas.ts';
import type { StepHandler } from '../types.ts';
import { checkDuplicateInvoice, sendInvoiceVerifiedEmail, validateInvoice } from './invoices.server.ts';
import { checkDocuments, finaCheck, hanfaCheck, riskAssessment, sendWelcomeEmail } from './parties.server.ts';
import { matchPayment, releaseReserve, sendPaymentConfirmation } from './payments.server.ts';

/**
 * The registry of step handlers a definition can name. It imports the
 * handler modules; they import only the shared types (../types.ts) and
 * errors (../step-errors.server.ts), never this module, so the registry and
 * its handlers form no cycle. Only the step runner and the definition editor
 * read it (docs/decisions/009-layers-and-imports.md).
 */
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

/** Handlers added at run time: only the tests' own (tests/support/workflow-test-handlers.ts); empty in production. */
const added = new Map<string, StepHandler>();

/**
 * The tests' hook: adds handlers under names of their own (blocking, failing
 * on demand) to this process's registry. A built-in name is refused, so a
 * test cannot change what production handlers do.
 */
export function registerStepHandlers(handlers: Record<string, StepHandler>): void {
  for (const [name, handler] of Object.entries(handlers)) {
    if (Object.hasOwn(HANDLERS, name)) throw new Error(`Step handler "${name}" is built in and cannot be replaced`);
    added.set(name, handler);
  }
}

export function getHandler(name: string): StepHandler | undefined {
  if (Object.hasOwn(HANDLERS, name)) return HANDLERS[name as HandlerName];
  return added.get(name);
}

/** Every handler name a definition may use here (the editor's choices). */
export function handlerNames(): string[] {
  return [...HANDLER_NAMES, ...added.keys()];
}
