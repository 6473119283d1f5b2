import fs from 'node:fs/promises';
import type nodemailerModule from 'nodemailer';
import { lazyRequire } from '../utils/lazy-require.server.ts';

const nodemailer = lazyRequire<typeof nodemailerModule>('nodemailer');
import { getEnv } from '../env.server.ts';
import { outboxDir } from '../email/mailer.server.ts';
import { IntegrationError, loadConfig, recorded } from './core.server.ts';
import type { IntegrationAdapter, TestOutcome } from './types.ts';

/**
 * Email (the 'sendgrid' integration row): mail itself goes through
 * app/email/mailer.server.ts. The test verifies the SMTP server of SMTP_URL
 * (connection and authentication, nodemailer's verify()); without SMTP_URL,
 * sandbox mode reports the local outbox and live mode fails clearly.
 */
export type EmailAdapter = IntegrationAdapter;

async function outboxCount(): Promise<number> {
  try {
    return (await fs.readdir(outboxDir())).filter((name) => name.endsWith('.eml')).length;
  } catch {
    return 0;
  }
}

export function emailAdapter(mode: 'sandbox' | 'live'): EmailAdapter {
  return {
    async test(): Promise<TestOutcome> {
      const { SMTP_URL } = getEnv();
      if (SMTP_URL) {
        const transport = nodemailer().createTransport(SMTP_URL);
        try {
          await transport.verify();
        } catch (error) {
          throw new IntegrationError('integrations.errors.smtpRefused', { reason: error instanceof Error ? error.message : String(error) });
        } finally {
          transport.close();
        }
        return { ok: true, message: `SMTP server ${new URL(SMTP_URL).hostname} accepted the connection` };
      }
      if (mode === 'live') throw new IntegrationError('integrations.errors.smtpUrlMissing');
      return { ok: true, message: `No SMTP_URL: mail goes to the local outbox (${await outboxCount()} message(s))` };
    },
  };
}

export function getEmail(base?: EmailAdapter): EmailAdapter {
  return {
    test: () =>
      recorded(
        'sendgrid',
        'test',
        async () => (base ?? emailAdapter((await loadConfig('sendgrid')).mode)).test(),
        (result) => ({ success: result.ok, message: result.message }),
      ),
  };
}
