import { createTestUser } from '../auth/test-helpers.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute } from '../db.server.ts';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';
import { decideKyc } from './kyc-decision.server.ts';

/** Fixtures for the wizard's tests (used by *.test.ts only). */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let counter = 0;
/** A valid OIB, different on every call. */
export function freshOib(): string {
  const first10 = String((Date.now() * 1000 + process.pid + counter++) % 1e10).padStart(10, '0');
  return `${first10}${oibCheckDigit(first10)}`;
}

export function wizardValues(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    companyName: 'Primjer d.o.o.',
    oib: freshOib(),
    registrationNumber: '080123456',
    contactPerson: 'Ana Anić',
    email: 'ana@primjer.hr',
    phone: '+385 1 234 5678',
    address: 'Ilica 1',
    city: 'Zagreb',
    postalCode: '10000',
    country: 'Croatia',
    iban: croatianIban('2340009', '1110012345'),
    creditLimit: '75000',
    ...overrides,
  };
}

export async function seedOnboardingDefinition(): Promise<void> {
  await execute(
    `INSERT INTO workflow_definitions (name, type, steps, is_active)
     VALUES ('Onboarding klijenta', 'client_onboarding', CAST(:steps AS jsonb), true)`,
    { steps: JSON.stringify([{ name: 'KYC pregled', type: 'manual', taskType: 'kyc_verification' }]) },
  );
}

/**
 * Approves a client's KYC through the real decision, as a manager (a new one
 * unless given), so that it can be financed. For factories whose clients are
 * inserted as rows.
 */
export async function approveKyc(clientId: string, actor?: Actor): Promise<void> {
  const manager = actor ?? { id: (await createTestUser({ role: 'manager' })).id, role: 'manager' as const };
  await decideKyc({ actor: manager, clientId, input: { decision: 'approve' } });
}
