import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { poolSize } from '../db/connection.ts';

/**
 * The baseline: a bare node:http + pg server answering GET /api/invoices with
 * the same session check, the same queries and the same JSON as FinFlow's
 * route (first page of 100, newest first, X-Total-Count), without framework,
 * query validation or prepared statements. FinFlow's throughput is reported
 * as a ratio to this; the bench compares the two answers before it measures
 * (sameAnswer), so the baseline cannot drift from the route. Its row mapping
 * is written out here rather than imported from FinFlow's DTO on purpose: the
 * baseline is the bare work, and the comparison checks the two against each other.
 */
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

const cents = (value: string) => Math.round(Number(value) * 100) / 100;
const money = (value: string | null) => (value === null ? null : cents(value));
const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/**
 * The session id in a signed `finflow_session` cookie, as Remix signs it (the
 * base64 of the JSON value, a dot, the HMAC-SHA256 of that in unpadded base64),
 * or null.
 */
function sessionIdOf(cookieHeader: string | undefined, secret: string): string | null {
  const raw = /(?:^|;\s*)finflow_session=([^;]*)/.exec(cookieHeader ?? '')?.[1];
  if (!raw) return null;
  const signed = decodeURIComponent(raw);
  const dot = signed.lastIndexOf('.');
  if (dot < 0) return null;
  const value = signed.slice(0, dot);
  const expected = Buffer.from(createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, ''));
  const given = Buffer.from(signed.slice(dot + 1));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const id: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  return typeof id === 'string' ? id : null;
}

export function startBaseline(databaseUrl: string, port: number, sessionSecret: string): Promise<{ close(): Promise<void> }> {
  // As many connections as FinFlow's web process opens: the pool's size is configuration, not the framework's cost.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize() });
  // An idle connection the server ends (the database stopping after a run) is no failure of the measurement; without a listener it would end the bench.
  pool.on('error', (error) => console.error(`[baseline] idle connection ended: ${error.message}`));
  const server = http.createServer(async (req, res) => {
    if (!req.url?.startsWith('/api/invoices')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const sessionId = sessionIdOf(req.headers.cookie, sessionSecret);
      const user = sessionId
        ? await pool.query('SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.expires_at > now() AND u.is_active', [sessionId])
        : null;
      if (!user?.rows[0]) {
        res.writeHead(401).end();
        return;
      }
      const [rows, count] = await Promise.all([
        pool.query(
          `SELECT i.id, i.invoice_number, i.status, i.verification_status, i.amount, i.currency, i.issue_date, i.due_date, i.description,
                  i.factor_amount, i.factor_fee, i.created_at, i.client_id, i.customer_id, i.paid_amount, i.credited_amount, i.source,
                  i.payment_reference, i.disputed, i.dispute_reason, i.charged_back_at, i.charge_back_reason, i.written_off_at,
                  c.company_name AS client_name, cu.company_name AS customer_name
             FROM invoices i JOIN clients c ON c.id = i.client_id JOIN customers cu ON cu.id = i.customer_id
            ORDER BY i.created_at DESC, i.id DESC LIMIT 100 OFFSET 0`,
        ),
        // FinFlow's own total for the whole book: the maintained status totals (app/invoices/summaries.server.ts).
        pool.query('SELECT status, sum(invoices)::int AS invoices, sum(ever_approved)::int AS ever_approved FROM invoice_status_deltas GROUP BY status'),
      ]);
      const body = rows.rows.map((row) => ({
        id: row.id,
        invoiceNumber: row.invoice_number,
        status: row.status,
        verificationStatus: row.verification_status,
        amount: cents(row.amount),
        currency: row.currency,
        issueDate: row.issue_date,
        dueDate: row.due_date,
        description: row.description,
        factorAmount: money(row.factor_amount),
        factorFee: money(row.factor_fee),
        createdAt: row.created_at.toISOString(),
        clientId: row.client_id,
        clientName: row.client_name,
        customerId: row.customer_id,
        customerName: row.customer_name,
        paidAmount: cents(row.paid_amount),
        creditedAmount: cents(row.credited_amount),
        source: row.source,
        paymentReference: row.payment_reference,
        disputed: row.disputed,
        disputeReason: row.dispute_reason,
        chargedBackAt: iso(row.charged_back_at),
        chargeBackReason: row.charge_back_reason,
        writtenOffAt: iso(row.written_off_at),
      }));
      const total = count.rows.reduce((sum, row) => sum + row.invoices, 0);
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Total-Count': String(total) });
      res.end(JSON.stringify(body));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: () => new Promise<void>((done) => server.close(() => pool.end().then(() => done()))),
      }),
    ),
  );
}

/** Whether FinFlow's route and the baseline answer the same: the same total and the same JSON, item by item. */
export async function sameAnswer(finflowUrl: string, baselineUrl: string, cookie: string): Promise<{ same: boolean; detail: string }> {
  const [ours, theirs] = await Promise.all([finflowUrl, baselineUrl].map((url) => fetch(url, { headers: { cookie, Connection: 'close' } })));
  const [ourBody, theirBody] = await Promise.all([ours.text(), theirs.text()]);
  if (!ours.ok || !theirs.ok) return { same: false, detail: `status ${ours.status} against the baseline's ${theirs.status}` };
  if (ours.headers.get('X-Total-Count') !== theirs.headers.get('X-Total-Count'))
    return { same: false, detail: `X-Total-Count ${ours.headers.get('X-Total-Count')} against ${theirs.headers.get('X-Total-Count')}` };
  const same = JSON.stringify(JSON.parse(ourBody)) === JSON.stringify(JSON.parse(theirBody));
  return { same, detail: same ? `${ourBody.length} bytes each` : `bodies differ (${ourBody.length} against ${theirBody.length} bytes)` };
}
