import fs from 'node:fs';
import path from 'node:path';
import { authenticator } from 'otplib';
import { inject } from 'vitest';

const STEP_MS = 30_000;
/** How long a code may take to reach the server and be checked. */
const MARGIN_MS = 10_000;

/** Last used step per secret, shared by every test file of the run (the server remembers them too). */
function stateFile() {
  return path.join(inject('dataDir'), 'e2e-totp-steps.json');
}
function readSteps(): Record<string, number> {
  return fs.existsSync(stateFile()) ? JSON.parse(fs.readFileSync(stateFile(), 'utf8')) : {};
}

/**
 * A code the server will accept now: the server takes ±1 step but never a step
 * at or before the last one used, so the test walks forward through the steps
 * and waits only when it would run ahead of the server's window.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  for (;;) {
    const steps = readSteps();
    const now = Date.now();
    const current = Math.floor(now / STEP_MS);
    // The step before the current one stops counting when this step ends: not when the code could
    // arrive after that on a loaded machine.
    const oldest = now % STEP_MS < STEP_MS - MARGIN_MS ? current - 1 : current;
    const step = Math.max(oldest, (steps[secret] ?? -Infinity) + 1);
    if (step <= current + 1) {
      fs.writeFileSync(stateFile(), JSON.stringify({ ...steps, [secret]: step }));
      return authenticator.clone({ epoch: step * STEP_MS }).generate(secret);
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - Date.now() + 50));
  }
}

/** The code of the step used last: the server must refuse it (replay). */
export function lastUsedTotpCode(secret: string): string {
  const step = readSteps()[secret];
  if (step === undefined) throw new Error('no code used yet for this secret');
  return authenticator.clone({ epoch: step * STEP_MS }).generate(secret);
}
