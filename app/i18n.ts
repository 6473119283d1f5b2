import enAgreements from './locales/en/agreements.json';
import enAnalytics from './locales/en/analytics.json';
import enBackups from './locales/en/backups.json';
import enClients from './locales/en/clients.json';
import enCommon from './locales/en/common.json';
import enDashboard from './locales/en/dashboard.json';
import enDilution from './locales/en/dilution.json';
import enDebtors from './locales/en/debtors.json';
import enDocuments from './locales/en/documents.json';
import enDunning from './locales/en/dunning.json';
import enEInvoices from './locales/en/einvoices.json';
import enEmail from './locales/en/email.json';
import enErrors from './locales/en/errors.json';
import enIntegrations from './locales/en/integrations.json';
import enInvoices from './locales/en/invoices.json';
import enKyc from './locales/en/kyc.json';
import enLedger from './locales/en/ledger.json';
import enLimits from './locales/en/limits.json';
import enOnboarding from './locales/en/onboarding.json';
import enPayments from './locales/en/payments.json';
import enRecourse from './locales/en/recourse.json';
import enRecovery from './locales/en/recovery.json';
import enRisk from './locales/en/risk.json';
import enTasks from './locales/en/tasks.json';
import enWorkflows from './locales/en/workflows.json';
import hrAgreements from './locales/hr/agreements.json';
import hrAnalytics from './locales/hr/analytics.json';
import hrBackups from './locales/hr/backups.json';
import hrClients from './locales/hr/clients.json';
import hrCommon from './locales/hr/common.json';
import hrDashboard from './locales/hr/dashboard.json';
import hrDilution from './locales/hr/dilution.json';
import hrDebtors from './locales/hr/debtors.json';
import hrDocuments from './locales/hr/documents.json';
import hrDunning from './locales/hr/dunning.json';
import hrEInvoices from './locales/hr/einvoices.json';
import hrEmail from './locales/hr/email.json';
import hrErrors from './locales/hr/errors.json';
import hrIntegrations from './locales/hr/integrations.json';
import hrInvoices from './locales/hr/invoices.json';
import hrKyc from './locales/hr/kyc.json';
import hrLedger from './locales/hr/ledger.json';
import hrLimits from './locales/hr/limits.json';
import hrOnboarding from './locales/hr/onboarding.json';
import hrPayments from './locales/hr/payments.json';
import hrRecourse from './locales/hr/recourse.json';
import hrRecovery from './locales/hr/recovery.json';
import hrRisk from './locales/hr/risk.json';
import hrTasks from './locales/hr/tasks.json';
import hrWorkflows from './locales/hr/workflows.json';

/**
 * Shared i18next configuration; the translations are bundled so no request
 * is needed to render. Each product area keeps its texts in its own file
 * (locales/{en,hr}/<area>.json, top-level keys named after the area); they
 * are merged into the one `common` namespace.
 */
export const supportedLanguages = ['en', 'hr'] as const;
export type Language = (typeof supportedLanguages)[number];
export const defaultLanguage: Language = 'en';
/** Cookie (server render) and localStorage (docs/screens.md settings) key for the chosen language. */
export const LANGUAGE_KEY = 'finflow-language';

export const resources = {
  en: {
    common: {
      ...enCommon,
      ...enAgreements,
      ...enAnalytics,
      ...enBackups,
      ...enClients,
      ...enDashboard,
      ...enDilution,
      ...enDebtors,
      ...enDocuments,
      ...enDunning,
      ...enEInvoices,
      ...enEmail,
      ...enErrors,
      ...enIntegrations,
      ...enInvoices,
      ...enKyc,
      ...enLedger,
      ...enLimits,
      ...enOnboarding,
      ...enPayments,
      ...enRecourse,
      ...enRecovery,
      ...enRisk,
      ...enTasks,
      ...enWorkflows,
    },
  },
  hr: {
    common: {
      ...hrCommon,
      ...hrAgreements,
      ...hrAnalytics,
      ...hrBackups,
      ...hrClients,
      ...hrDashboard,
      ...hrDilution,
      ...hrDebtors,
      ...hrDocuments,
      ...hrDunning,
      ...hrEInvoices,
      ...hrEmail,
      ...hrErrors,
      ...hrIntegrations,
      ...hrInvoices,
      ...hrKyc,
      ...hrLedger,
      ...hrLimits,
      ...hrOnboarding,
      ...hrPayments,
      ...hrRecourse,
      ...hrRecovery,
      ...hrRisk,
      ...hrTasks,
      ...hrWorkflows,
    },
  },
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value);
}

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: defaultLanguage,
  defaultNS: 'common',
  ns: ['common'],
  resources,
  interpolation: { escapeValue: false },
  // docs/screens.md: a missing key logs a warning and shows the key itself.
  saveMissing: true,
  missingKeyHandler: (languages: readonly string[], namespace: string, key: string) => {
    console.warn(`Missing translation: ${languages.join(',')}/${namespace}:${key}`);
  },
  returnNull: false,
};
