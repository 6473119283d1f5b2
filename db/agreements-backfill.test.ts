import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { getSequelize } from './connection.ts';
import { migrateDown, migrateUp } from './migrate.ts';

/**
 * The factoring-contract migration retires the clients' agreement columns:
 * every client that had signed gets a signed version 1 with its old terms, and
 * going back down puts the latest signed version into the columns again.
 */
describe('the agreement columns of clients become agreement versions', () => {
  it('backfills a signed version 1 per signed client, keeps numbers apart, and migrates back', async () => {
    const sequelize = getSequelize();
    const select = <T extends object>(sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT });
    await migrateDown(sequelize, { to: '2026.11.27T01.00.00.factoring-contract' });
    await sequelize.query(`
      INSERT INTO clients (company_name, oib, advance_rate, fee_rate, recourse, agreement_number, agreement_signed_on) VALUES
        ('Regres d.o.o.', '11111111111', 85.00, 1.750, true, 'UGF-2024-0001', '2024-03-05'),
        ('Bez regresa d.o.o.', '22222222222', 75.00, 2.000, false, NULL, '2025-01-10'),
        ('Dvojnik d.o.o.', '33333333333', 80.00, 1.500, true, 'ugf-2024-0001', '2024-05-01'),
        ('Nepotpisan d.o.o.', '44444444444', 80.00, 1.500, true, NULL, NULL)`);
    await migrateUp(sequelize);

    const rows = await select<Record<string, unknown>>(`
      SELECT c.company_name, a.number, a.version, to_char(a.effective_from, 'YYYY-MM-DD') AS effective_from, a.advance_rate, a.fee_model, a.fee_rate,
             a.recourse, a.recourse_days, a.max_tenor_days, a.disclosed, a.signature_status, to_char(a.signed_on, 'YYYY-MM-DD') AS signed_on
        FROM agreements a JOIN clients c ON c.id = a.client_id ORDER BY c.oib`);
    expect(rows).toEqual([
      expect.objectContaining({ company_name: 'Regres d.o.o.', number: expect.stringMatching(/^UGF-2024-0001-[0-9A-F]{8}$/), version: 1, effective_from: '2024-03-05' }),
      expect.objectContaining({ company_name: 'Bez regresa d.o.o.', number: expect.stringMatching(/^UF-2025-[0-9A-F]{8}$/), recourse: false, recourse_days: null }),
      expect.objectContaining({ company_name: 'Dvojnik d.o.o.', number: expect.stringMatching(/^ugf-2024-0001-[0-9A-F]{8}$/) }),
    ]);
    expect(rows[0]).toMatchObject({
      advance_rate: '85.00',
      fee_model: 'discount_30',
      fee_rate: '1.7500',
      recourse: true,
      recourse_days: 60,
      max_tenor_days: 180,
      disclosed: true,
      signature_status: 'signed',
      signed_on: '2024-03-05',
    });
    const columns = await select<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'clients' AND column_name IN ('advance_rate', 'fee_rate', 'recourse', 'agreement_number', 'agreement_signed_on')`,
    );
    expect(columns).toEqual([]);

    await migrateDown(sequelize, { to: '2026.11.27T01.00.00.factoring-contract' });
    const back = await select<Record<string, unknown>>(
      `SELECT company_name, advance_rate, fee_rate, recourse, to_char(agreement_signed_on, 'YYYY-MM-DD') AS signed_on FROM clients ORDER BY oib`,
    );
    expect(back.map((row) => [row.company_name, row.advance_rate, row.fee_rate, row.recourse, row.signed_on])).toEqual([
      ['Regres d.o.o.', '85.00', '1.750', true, '2024-03-05'],
      ['Bez regresa d.o.o.', '75.00', '2.000', false, '2025-01-10'],
      ['Dvojnik d.o.o.', '80.00', '1.500', true, '2024-05-01'],
      ['Nepotpisan d.o.o.', '80.00', '1.500', true, null],
    ]);
    await migrateUp(sequelize);
  });
});
