import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * The mail the app under test wrote to its local outbox (SMTP_URL unset), oldest first, each
 * message decoded from quoted-printable as UTF-8 so Croatian letters and links read as sent.
 */
export function outboxMessages(): string[] {
  return outboxFiles().map((file) => file.text);
}

/** The same messages with their file names (the name /email-automation/outbox?message= shows). */
export function outboxFiles(): Array<{ name: string; text: string }> {
  const dir = path.join(inject('dataDir'), 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => ({
      name,
      text: fs
        .readFileSync(path.join(dir, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8')),
    }));
}

/** The outbox messages addressed to `to`, oldest first. */
export function mailsTo(to: string): string[] {
  return outboxMessages().filter((mail) => mail.includes(`To: ${to}`));
}
