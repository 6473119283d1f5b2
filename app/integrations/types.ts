/**
 * The integrations FinFlow talks to (docs/domain-model.md). No
 * server imports here: the pages' forms use these lists too.
 */
export const INTEGRATION_TYPES = ['hanfa', 'fina', 'einvoicing', 'sendgrid', 'docusign'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** /integrations tabs (docs/screens.md): Croatian integrations and general ones. */
export const CROATIAN_TYPES: readonly IntegrationType[] = ['hanfa', 'fina', 'einvoicing'];
export const GENERAL_TYPES: readonly IntegrationType[] = ['sendgrid', 'docusign'];

export const INTEGRATION_STATUSES = ['active', 'in_development', 'error', 'inactive', 'testing'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

export const INTEGRATION_MODES = ['sandbox', 'live'] as const;
export type IntegrationMode = (typeof INTEGRATION_MODES)[number];

export function isIntegrationType(value: unknown): value is IntegrationType {
  return typeof value === 'string' && (INTEGRATION_TYPES as readonly string[]).includes(value);
}

/** What every adapter's `test()` answers. */
export interface TestOutcome {
  ok: boolean;
  message: string;
}

/** The one interface every adapter has (docs/domain-model.md): `test()`, plus the calls each serves. */
export interface IntegrationAdapter {
  test(): Promise<TestOutcome>;
}

/** Default names and descriptions, used when a row is created for an integration that has none yet. */
export const INTEGRATION_DEFAULTS: Record<IntegrationType, { name: string; description: string }> = {
  hanfa: { name: 'HANFA API', description: 'Hrvatska agencija za nadzor financijskih usluga: regulatorno izvješćivanje o portfelju faktoringa.' },
  fina: { name: 'FINA API', description: 'Financijska agencija: podaci o tvrtkama po OIB-u i provjera blokade računa.' },
  einvoicing: { name: 'E-računi EN 16931', description: 'Slanje i zaprimanje e-računa (UBL 2.1, EN 16931, HR CIUS) putem informacijskog posrednika.' },
  sendgrid: { name: 'Email automatizacija', description: 'Slanje e-pošte klijentima (SMTP ili lokalni outbox).' },
  docusign: { name: 'E-potpis', description: 'Elektroničko potpisivanje ugovora i obavijesti o cesiji.' },
};
