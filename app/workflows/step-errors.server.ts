/**
 * How the runner tells a step failure that retrying can cure from one it
 * cannot. Step handlers throw PermanentStepError; the runner and the
 * definition editor's test run describe any failure with describeError.
 */

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
    const text = await error
      .clone()
      .text()
      .catch(() => '');
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
