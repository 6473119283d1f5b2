import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { getEnv } from '../env.server.ts';
import { adapterCalls, IntegrationError, liveStatusTest, liveJson, liveRequest, type IntegrationConfig } from './core.server.ts';
import type { IntegrationAdapter } from './types.ts';

/**
 * E-invoicing through an information intermediary (Fiskalizacija 2.0,
 * docs/croatian-formats.md): send a UBL 2.1 Invoice/CreditNote, receive the ones addressed
 * to us. The sandbox is a mailbox in DATA_DIR/einvoicing-sandbox: `sent/`
 * holds what we sent, `inbox/` what waits to be received (drop a UBL file
 * there to simulate an incoming e-invoice), `received/` what was taken.
 * Live: POST {endpoint}/documents (XML) → { documentId, status } and
 * GET {endpoint}/documents/incoming → [{ documentId, xml }].
 */
export interface SentDocument {
  documentId: string;
  status: 'delivered' | 'accepted' | 'queued';
}
export interface ReceivedDocument {
  documentId: string;
  receivedAt: string;
  xml: string;
}
export interface EInvoicingAdapter extends IntegrationAdapter {
  sendDocument(ubl: string): Promise<SentDocument>;
  receiveDocuments(): Promise<ReceivedDocument[]>;
}

export function mailboxDir(folder?: 'sent' | 'inbox' | 'received'): string {
  const base = path.join(getEnv().DATA_DIR, 'einvoicing-sandbox');
  return folder ? path.join(base, folder) : base;
}

function assertUbl(ubl: string) {
  const head = ubl.slice(0, 4000);
  if (!/<(\w+:)?(Invoice|CreditNote)[\s>]/.test(head) || !head.includes('urn:oasis:names:specification:ubl:schema:xsd:')) {
    throw new IntegrationError('integrations.errors.notUbl');
  }
}

export const documentIdOf = (ubl: string) => `EINV-${createHash('sha256').update(ubl).digest('hex').slice(0, 20)}`;

export const sandboxEInvoicing: EInvoicingAdapter = {
  async test() {
    await fs.mkdir(mailboxDir('inbox'), { recursive: true });
    const waiting = (await fs.readdir(mailboxDir('inbox'))).filter((name) => name.endsWith('.xml')).length;
    return { ok: true, message: `E-invoicing sandbox mailbox is available (${waiting} incoming waiting)` };
  },
  async sendDocument(ubl) {
    assertUbl(ubl);
    // Same document, same id: a resend is recognisable and overwrites nothing else.
    const documentId = documentIdOf(ubl);
    await fs.mkdir(mailboxDir('sent'), { recursive: true });
    await fs.writeFile(path.join(mailboxDir('sent'), `${documentId}.xml`), ubl);
    return { documentId, status: 'delivered' };
  },
  async receiveDocuments() {
    await fs.mkdir(mailboxDir('inbox'), { recursive: true });
    await fs.mkdir(mailboxDir('received'), { recursive: true });
    const names = (await fs.readdir(mailboxDir('inbox'))).filter((name) => name.endsWith('.xml')).sort();
    const documents: ReceivedDocument[] = [];
    for (const name of names) {
      const from = path.join(mailboxDir('inbox'), name);
      const xml = await fs.readFile(from, 'utf8');
      const documentId = documentIdOf(xml);
      await fs.rename(from, path.join(mailboxDir('received'), `${documentId}.xml`));
      documents.push({ documentId, receivedAt: new Date().toISOString(), xml });
    }
    return documents;
  },
};

export function liveEInvoicing(config: IntegrationConfig): EInvoicingAdapter {
  return {
    test: () => liveStatusTest(config),
    async sendDocument(ubl) {
      assertUbl(ubl);
      const response = await liveRequest(config, 'documents', { method: 'POST', body: ubl, contentType: 'application/xml' });
      const body = (await response.json().catch(() => ({}))) as Partial<SentDocument>;
      return { documentId: typeof body.documentId === 'string' ? body.documentId : documentIdOf(ubl), status: body.status ?? 'queued' };
    },
    async receiveDocuments() {
      const body = await liveJson<{ documentId?: string; xml?: string }[]>(config, 'documents/incoming');
      if (!Array.isArray(body)) throw new IntegrationError('integrations.errors.unexpectedDocuments', { name: config.name });
      return body
        .filter((item) => typeof item.xml === 'string')
        .map((item) => ({ documentId: item.documentId ?? documentIdOf(String(item.xml)), receivedAt: new Date().toISOString(), xml: String(item.xml) }));
    },
  };
}

export function getEInvoicing(base?: EInvoicingAdapter): EInvoicingAdapter {
  const { test, call } = adapterCalls('einvoicing', (config) => (config.mode === 'live' ? liveEInvoicing(config) : sandboxEInvoicing), base);
  return {
    test,
    sendDocument: (ubl) =>
      call(
        'sendDocument',
        (einvoicing) => einvoicing.sendDocument(ubl),
        (sent) => ({
          success: true,
          message: `Sent ${sent.documentId} (${sent.status})`,
        }),
      ),
    receiveDocuments: () =>
      call(
        'receiveDocuments',
        (einvoicing) => einvoicing.receiveDocuments(),
        (documents) => ({
          success: true,
          message: `Received ${documents.length} document(s)`,
        }),
      ),
  };
}

export interface MailboxEntry {
  folder: 'sent' | 'inbox' | 'received';
  name: string;
  size: number;
  modifiedAt: string;
}

/** The sandbox mailbox, newest first (for /integrations/einvoicing). */
export async function sandboxMailbox(limit = 50): Promise<MailboxEntry[]> {
  const entries: MailboxEntry[] = [];
  for (const folder of ['sent', 'inbox', 'received'] as const) {
    let names: string[] = [];
    try {
      names = await fs.readdir(mailboxDir(folder));
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith('.xml'))) {
      const stat = await fs.stat(path.join(mailboxDir(folder), name));
      entries.push({ folder, name, size: stat.size, modifiedAt: stat.mtime.toISOString() });
    }
  }
  return entries.sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt)).slice(0, limit);
}
