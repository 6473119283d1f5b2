/** Dashboard rules shared by the server and the browser (docs/screens.md). No server imports here. */

/** The chart's period buttons (docs/screens.md: 7D, 30D selected by default, 90D), in the URL as ?period=. */
export const PERIODS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type Period = keyof typeof PERIODS;
export const DEFAULT_PERIOD: Period = '30d';
export function periodOf(value: string | null): Period {
  return value && Object.hasOwn(PERIODS, value) ? (value as Period) : DEFAULT_PERIOD;
}

/** docs/screens.md: the share of clients assessed low or medium, rounded; 87 when there are none. */
export function automaticAssessmentPercent(risk: { low: number; medium: number; high: number }): number {
  const total = risk.low + risk.medium + risk.high;
  return total === 0 ? 87 : Math.round((100 * (risk.low + risk.medium)) / total);
}

/** docs/screens.md: the processing-time bar, (1440 − average minutes) / 1440 percent, capped at 100 (and not below 0). */
export function processingTimePercent(averageMinutes: number): number {
  return Math.max(0, Math.min(100, Math.round((100 * (1440 - averageMinutes)) / 1440)));
}

/** The dashboard's kind of an activity (docs/screens.md statuses Odobreno, U obradi, Završeno, Zahtijeva pažnju), from its action. */
export type ActivityStatus = 'approved' | 'processing' | 'completed' | 'attention';
export function activityStatus(action: string): ActivityStatus {
  // A chargeback or a write-off closes an invoice its debtor did not pay (docs/collections.md#recourse-and-write-off).
  if (/(rejected|failed|blocked|cancelled|expired|warning|overdue|default|charged_back|written_off)/.test(action)) return 'attention';
  if (/_(approved|verified|financed|signed)$/.test(action)) return 'approved';
  if (/_(completed|paid|confirmed|released|imported|exported|sent|assigned|login|logout)$/.test(action)) return 'completed';
  return 'processing';
}

/** Integration display (docs/screens.md): active, in_development, error; anything else shows as inactive. */
export type IntegrationDisplay = 'active' | 'in_development' | 'error' | 'inactive';
export function integrationDisplay(status: string): IntegrationDisplay {
  return status === 'active' || status === 'in_development' || status === 'error' ? status : 'inactive';
}
