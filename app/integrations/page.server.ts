import { json } from '@remix-run/node';
import { parseWithZod } from '@conform-to/zod/v4';
import { requirePermission } from '../auth/permissions.server.ts';
import { readApiError } from '../utils/api.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { configureIntegration, getIntegration, receiveEInvoices, requireIntegrationType, submitHanfaReport, testIntegration } from './integrations.server.ts';
import { hanfaReportSchema, integrationConfigFormSchema, parseCredentialLines } from './schemas.ts';
import { readFormData } from '../utils/form-data.server.ts';
import { unknownIntent } from '../utils/intent.server.ts';
import { safeRedirect } from '../utils/safe-redirect.ts';

/**
 * The page actions of /integrations and /integrations/{type}: intent test,
 * configure, submitReport (HANFA), receive (e-invoicing). Successes redirect
 * with a toast; refusals come back as `{ intent, message, errors }`.
 */
export const INTEGRATION_INTENTS = ['test', 'configure', 'submitReport', 'receive'] as const;

const localPath = safeRedirect;

export async function handleIntegrationIntent(request: Request, options: { ip: string | null; fallback: string; type?: string }) {
  const formData = await readFormData(request);
  const intent = String(formData.get('intent') ?? '');
  if (!(INTEGRATION_INTENTS as readonly string[]).includes(intent)) return unknownIntent();
  const actor = await requirePermission(request, 'manage:integrations');
  const back = localPath(formData.get('redirectTo'), options.fallback);
  const type = requireIntegrationType(options.type ?? String(formData.get('type') ?? ''));
  try {
    if (intent === 'test') {
      const { name } = await getIntegration(type);
      const result = await testIntegration({ actor, type, ip: options.ip });
      return redirectWithToast(back, {
        title: result.success ? 'integrations.toast.testSuccess' : 'integrations.toast.testFailure',
        description: result.success ? 'integrations.toast.testSuccessDescription' : 'integrations.toast.testFailureDescription',
        params: { name, message: result.message },
        variant: result.success ? 'default' : 'destructive',
      });
    }
    if (intent === 'configure') {
      const submission = parseWithZod(formData, { schema: integrationConfigFormSchema });
      if (submission.status !== 'success') {
        const errors = Object.fromEntries(Object.entries(submission.error ?? {}).filter(([, value]) => value)) as Record<string, string[]>;
        return json({ intent, message: Object.values(errors)[0]?.[0] ?? 'errors.api.invalidInput', errors }, { status: 400 });
      }
      const { endpoint, mode, isEnabled, credentials, clearCredentials } = submission.value;
      await configureIntegration({
        actor,
        type,
        input: { endpoint: endpoint ?? '', mode, isEnabled, clearCredentials, credentials: credentials ? (parseCredentialLines(credentials) ?? {}) : undefined },
        ip: options.ip,
      });
      return redirectWithToast(back, { title: 'integrations.toast.savedTitle', description: 'integrations.toast.saved' });
    }
    if (intent === 'submitReport') {
      const parsed = hanfaReportSchema.safeParse({ period: formData.get('period') });
      if (!parsed.success) return json({ intent, message: parsed.error.issues[0].message, errors: { period: [parsed.error.issues[0].message] } }, { status: 400 });
      const receipt = await submitHanfaReport({ actor, period: parsed.data.period, ip: options.ip });
      return redirectWithToast(back, {
        title: 'integrations.toast.reportTitle',
        description: 'integrations.toast.report',
        params: { period: parsed.data.period, receiptId: receipt.receiptId },
      });
    }
    const summary = await receiveEInvoices({ actor, ip: options.ip });
    return redirectWithToast(back, {
      title: 'integrations.toast.receivedTitle',
      description: 'einvoices.toast.received',
      params: { count: summary.received, imported: summary.imported, failed: summary.failed },
      variant: summary.failed > 0 ? 'destructive' : 'default',
    });
  } catch (error) {
    const refusal = await readApiError(error);
    if (!refusal) throw error;
    return json({ intent, message: refusal.message, errors: refusal.errors }, { status: refusal.status });
  }
}
