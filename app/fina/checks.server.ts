import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { getFina, type FinaAdapter } from '../integrations/fina.server.ts';
import { assessEntity } from '../risk/assessments.server.ts';
import { createTask } from '../tasks/tasks.server.ts';
import { apiError } from '../utils/api.server.ts';
import { isUuid } from '../utils/validation.ts';
import type { Customer } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { iso } from '../utils/api-values.ts';

/**
 * FINA account checks: the customer card's 'FINA provjera'
 * and the daily 'fina-checks' job ask the FINA adapter whether a customer's
 * account is blocked. In one transaction the customer gets accountBlocked,
 * blockageReason and lastFinaCheck; a NEW blockage (not blocked before)
 * triggers a risk assessment (reason 'blockage'; the blockage factor drops the
 * score), opens an urgent customer_contact task and logs
 * 'fina_blockage_found'; a lifted one logs 'fina_blockage_cleared'; every
 * check logs 'fina_checked'. A customer already blocked stays blocked without
 * a second task.
 */
export const FINA_MESSAGES = {
  customerNotFound: 'integrations.validation.finaCustomerNotFound',
  checkFailed: 'integrations.validation.finaCheckFailed',
} as const;

export interface FinaCheckResult {
  customerId: string;
  companyName: string;
  accountBlocked: boolean;
  blockageReason: string | null;
  lastFinaCheck: string;
  /** 'blocked' = a new blockage, 'cleared' = a blockage lifted, 'unchanged' otherwise. */
  change: 'blocked' | 'cleared' | 'unchanged';
  riskScore: number | null;
  taskId: string | null;
}

type CustomerRow = RowOf<typeof Customer, 'id' | 'company_name' | 'oib' | 'account_blocked' | 'blockage_reason' | 'risk_score'>;

export async function checkCustomerAccount({
  actor,
  customerId,
  ip,
  fina = getFina(),
}: {
  actor: Actor | null;
  customerId: string;
  ip?: string | null;
  fina?: FinaAdapter;
}): Promise<FinaCheckResult> {
  if (actor) assertCan(actor, 'update:customer');
  const before = isUuid(customerId)
    ? await selectOne<CustomerRow>(`SELECT id, company_name, oib, account_blocked, blockage_reason, risk_score FROM customers WHERE id = :customerId`, { customerId })
    : null;
  if (!before) throw apiError(404, FINA_MESSAGES.customerNotFound);

  // The remote call stays outside the transaction: no row lock is held while FINA answers.
  let answer;
  try {
    answer = await getFinaAnswer(fina, before.oib);
  } catch (error) {
    throw apiError(502, FINA_MESSAGES.checkFailed, { params: { detail: error instanceof Error ? error.message : String(error) } });
  }

  return inTransaction(async (transaction) => {
    const current = await selectOne<CustomerRow>(
      `SELECT id, company_name, oib, account_blocked, blockage_reason, risk_score FROM customers WHERE id = :customerId FOR UPDATE`,
      { customerId },
      { transaction },
    );
    if (!current) throw apiError(404, FINA_MESSAGES.customerNotFound);
    const reason = answer.blocked ? (answer.reason ?? 'Blokada računa (FINA)') : null;
    const change = answer.blocked && !current.account_blocked ? 'blocked' : !answer.blocked && current.account_blocked ? 'cleared' : 'unchanged';
    const { rows } = await execute<{ last_fina_check: Date }>(
      `UPDATE customers SET account_blocked = :blocked, blockage_reason = :reason, last_fina_check = now() WHERE id = :customerId
       RETURNING last_fina_check`,
      { blocked: answer.blocked, reason: reason?.slice(0, 5000) ?? null, customerId },
      { transaction },
    );
    const userId = actor?.id ?? null;
    const details = { oib: current.oib, accountBlocked: answer.blocked, blockageReason: reason, since: answer.since };
    await logActivity({ action: 'fina_checked', userId, entityType: 'customer', entityId: customerId, ipAddress: ip, details }, transaction);
    let riskScore = current.risk_score;
    let taskId: string | null = null;
    if (change === 'blocked') {
      await logActivity({ action: 'fina_blockage_found', userId, entityType: 'customer', entityId: customerId, ipAddress: ip, details }, transaction);
      // The system assesses (an actor may lack 'assess:risk'); the check itself is logged with the actor above.
      const assessment = await assessEntity({ entityType: 'customer', entityId: customerId, actor: null, reason: 'blockage', notes: `FINA: ${reason ?? ''}`, ip }, { transaction });
      riskScore = assessment.score;
      const task = await createTask(
        {
          actor: null,
          input: {
            title: `Blokada računa: ${current.company_name}`.slice(0, 255),
            description: `FINA je prijavila blokadu računa kupca ${current.company_name} (OIB ${current.oib})${answer.since ? ` od ${answer.since}` : ''}: ${reason ?? ''}. Kontaktirati kupca i provjeriti otvorene fakture.`,
            type: 'customer_contact',
            priority: 'urgent',
            entityType: 'customer',
            entityId: customerId,
          },
          ip,
        },
        { transaction },
      );
      taskId = task.id;
    } else if (change === 'cleared') {
      await logActivity(
        { action: 'fina_blockage_cleared', userId, entityType: 'customer', entityId: customerId, ipAddress: ip, details: { ...details, previousReason: current.blockage_reason } },
        transaction,
      );
    }
    return {
      customerId,
      companyName: current.company_name,
      accountBlocked: answer.blocked,
      blockageReason: reason,
      lastFinaCheck: new Date(rows[0].last_fina_check).toISOString(),
      change,
      riskScore,
      taskId,
    };
  });
}

async function getFinaAnswer(fina: FinaAdapter, oib: string) {
  return fina.accountBlockage(oib);
}

/**
 * The daily job: every customer, in batches of `batchSize` by id (keyset), so
 * a crash resumes cheaply; idempotent (a second run changes nothing and opens
 * no second task). One customer's failure does not stop the others.
 */
export async function checkAllCustomers(options: { batchSize?: number; fina?: FinaAdapter } = {}): Promise<{
  checked: number;
  blocked: number;
  cleared: number;
  failed: number;
}> {
  const batchSize = options.batchSize ?? 100;
  const fina = options.fina ?? getFina();
  const totals = { checked: 0, blocked: 0, cleared: 0, failed: 0 };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await selectRows<{ id: string }>(`SELECT id FROM customers WHERE id > :after ORDER BY id LIMIT :limit`, { after, limit: batchSize });
    if (batch.length === 0) break;
    for (const { id } of batch) {
      try {
        const result = await checkCustomerAccount({ actor: null, customerId: id, fina });
        totals.checked += 1;
        if (result.change === 'blocked') totals.blocked += 1;
        if (result.change === 'cleared') totals.cleared += 1;
      } catch (error) {
        totals.failed += 1;
        console.error(`fina-checks: customer ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    after = batch[batch.length - 1].id;
  }
  return totals;
}

export interface RecentFinaCheck {
  customerId: string;
  companyName: string;
  oib: string;
  accountBlocked: boolean;
  blockageReason: string | null;
  checkedAt: string;
}

/** The latest FINA checks (for /integrations/fina), newest first. */
export async function recentFinaChecks(limit = 20): Promise<RecentFinaCheck[]> {
  const rows = await selectRows<{ entity_id: string; company_name: string; oib: string; details: { accountBlocked?: boolean; blockageReason?: string | null }; created_at: Date }>(
    `SELECT a.entity_id, c.company_name, c.oib, a.details, a.created_at
       FROM activity_logs a JOIN customers c ON c.id = a.entity_id
      WHERE a.action = 'fina_checked' ORDER BY a.created_at DESC, a.id DESC LIMIT :limit`,
    { limit },
  );
  return rows.map((row) => ({
    customerId: row.entity_id,
    companyName: row.company_name,
    oib: row.oib,
    accountBlocked: Boolean(row.details.accountBlocked),
    blockageReason: row.details.blockageReason ?? null,
    checkedAt: iso(row.created_at),
  }));
}
