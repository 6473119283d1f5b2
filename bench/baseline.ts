import http from 'node:http';
import pg from 'pg';

/**
 * The baseline: a bare node:http + pg server answering GET /api/invoices with
 * the same query and the same JSON as FinFlow's route (first page of 100,
 * newest first, X-Total-Count), without framework, session or validation.
 * FinFlow's throughput is reported as a ratio to this.
 */
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

const cents = (value: string) => Math.round(Number(value) * 100) / 100;

export function startBaseline(databaseUrl: string, port: number): Promise<{ close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle connection the server ends (the database stopping after a run) is no failure of the measurement; without a listener it would end the bench.
  pool.on('error', (error) => console.error(`[baseline] idle connection ended: ${error.message}`));
  const server = http.createServer(async (req, res) => {
    if (!req.url?.startsWith('/api/invoices')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const [rows, count] = await Promise.all([
        pool.query(
          `SELECT i.*, c.company_name AS client_name, cu.company_name AS customer_name
             FROM invoices i JOIN clients c ON c.id = i.client_id JOIN customers cu ON cu.id = i.customer_id
            ORDER BY i.created_at DESC, i.id DESC LIMIT 100 OFFSET 0`,
        ),
        // FinFlow's own total for the whole book: the maintained status totals (app/invoices/summaries.server.ts).
        pool.query('SELECT coalesce(sum(invoices), 0)::int AS total FROM invoice_status_deltas'),
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
        factorAmount: row.factor_amount === null ? null : cents(row.factor_amount),
        factorFee: row.factor_fee === null ? null : cents(row.factor_fee),
        createdAt: row.created_at.toISOString(),
        clientId: row.client_id,
        clientName: row.client_name,
        customerId: row.customer_id,
        customerName: row.customer_name,
        paidAmount: cents(row.paid_amount),
        source: row.source,
      }));
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Total-Count': String(count.rows[0].total) });
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
