import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a local port (the `smtp-server` package) that keeps
 * every accepted message. `acceptLimit` makes it stop answering after that
 * many: the next message's DATA is read but never acknowledged, so a sender
 * that dies then has no message accepted-but-unrecorded.
 */
export interface ReceivedMail {
  to: string;
  raw: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Messages whose DATA arrived while the limit held (never accepted). */
  held: number;
  acceptLimit: number;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const state: Omit<TestSmtp, 'url' | 'close'> = { received: [], held: 0, acceptLimit: Infinity };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.received.length >= state.acceptLimit) {
          state.held += 1; // no 250: the sender waits until it gives up or dies
          return;
        }
        for (const to of session.envelope.rcptTo) state.received.push({ to: to.address, raw: Buffer.concat(chunks).toString('latin1') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Unescapes quoted-printable so a raw message can be searched. */
export const decodeQuotedPrintable = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The text and HTML parts of a raw message from nodemailer (multipart/alternative). */
export function mailParts(raw: string): { text: string; html: string } {
  const [text, html = ''] = decodeQuotedPrintable(raw).split('Content-Type: text/html');
  return { text, html };
}
