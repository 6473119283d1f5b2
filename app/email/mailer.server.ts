import fs from 'node:fs/promises';
import path from 'node:path';
import type nodemailerModule from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { lazyRequire } from '../utils/lazy-require.server.ts';
import { getEnv } from '../env.server.ts';

const nodemailer = lazyRequire<typeof nodemailerModule>('nodemailer');

/**
 * Outgoing mail: SMTP when SMTP_URL is set; otherwise each message is written
 * as an .eml file to DATA_DIR/outbox, so a newcomer sees real mail without a
 * mail server (README.md).
 */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable Message-ID (e.g. from the log row), so a re-sent message carries the same one and receivers can tell it is the same mail. */
  messageId?: string;
  /** Files sent with the message (the notice of assignment, a payment slip). */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

let transporter: Transporter | undefined;

/** Forgets the transport (tests that change SMTP_URL between files). */
export function resetMailer(): void {
  transporter?.close();
  transporter = undefined;
}

function getTransporter(): Transporter {
  const env = getEnv();
  transporter ??= env.SMTP_URL ? nodemailer().createTransport(env.SMTP_URL) : nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return transporter;
}

export function outboxDir() {
  return path.join(getEnv().DATA_DIR, 'outbox');
}

/**
 * A system mail's text (not a staff template): Croatian first, then English.
 * With a `signature`, it closes the Croatian part and a rule separates the two.
 */
export function bilingualText(hr: readonly string[], en: readonly string[], signature?: readonly string[]): string {
  const croatian = signature ? [...hr, '', ...signature, '', '---'] : hr;
  return [...croatian, '', ...en].join('\n');
}

/** Sends one message; returns its Message-ID. Throws when the SMTP server refuses it. */
export async function sendMail(mail: OutgoingMail): Promise<{ messageId: string }> {
  const env = getEnv();
  const info = await getTransporter().sendMail({ from: env.MAIL_FROM, ...mail });
  if (!env.SMTP_URL) {
    const message = (info as unknown as { message: Buffer }).message;
    await fs.mkdir(outboxDir(), { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const id = info.messageId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 24);
    await fs.writeFile(path.join(outboxDir(), `${stamp}-${id}.eml`), message);
    // The HTML part beside it, so the outbox view can show the message as the recipient would see it.
    if (mail.html) await fs.writeFile(path.join(outboxDir(), `${stamp}-${id}.html`), mail.html);
  }
  return { messageId: info.messageId };
}
