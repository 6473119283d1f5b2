import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { ClientStatus, OnboardingStatus } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor, ClientCommand } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { recordStoredDocument } from '../documents/documents.server.ts';
import { checkUpload } from '../documents/file-types.server.ts';
import { deleteObjectIfUnreferenced, ensureObjectPresent } from '../documents/object-refs.server.ts';
import { getObjectStore, type StoredObject } from '../storage/object-store.server.ts';
import { apiError, readApiError, zodRefusal } from '../utils/api.server.ts';
import { applyKycDecision, lockClientOnboarding, resumeKycReview, type KycEffect } from '../workflows/decisions.server.ts';
import { startWorkflowInstance } from '../workflows/instances.server.ts';
import { completeOpenTasks } from '../tasks/complete-open.server.ts';
import { DOCUMENT_TYPE_OF_KYC, KYC_DOCUMENT_TYPES, KYC_EXTENSIONS, KYC_MAX_FILE_BYTES, KYC_MAX_FILE_MB, type KycDocumentType } from './kyc.ts';
import { sendDocumentRequestMail, sendRejectionMail } from './kyc-mail.server.ts';
import { KYC_ERRORS, KYC_REQUEST_TTL_DAYS, kycDecisionSchema, type KycDecision, type KycDecisionInput } from './schemas.ts';
import type { FilePart, UploadErrors } from './uploads.server.ts';
import { isUuid } from '../utils/validation.ts';
import type { ActivityLog, Client, CreditLimitRequest, Document } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { iso } from '../utils/api-values.ts';

/**
 * The applicant's KYC decision, taken by a manager ('decide:kyc' in
 * app/auth/permissions.server.ts). An application is a client whose
 * onboarding is neither completed nor rejected: one the registration wizard
 * created, or one staff entered (startKycReview). Staff
 * decide from its KYC task (/tasks), its page (/clients/{id}) or the API:
 * - approve: client active, onboarding completed; the onboarding workflow
 *   goes on to its end (the welcome mail of the client_onboarding template);
 * - reject, with a reason: client inactive, onboarding rejected, the
 *   workflow ends, the applicant is told why by email;
 * - request_documents, with a message: the applicant gets an email with a
 *   link (14 days; reusable until used) to a page that takes the files onto
 *   the same client; the workflow waits at its review, which resumes with a
 *   new KYC task when the files arrive.
 * Each decision closes the open KYC tasks and spends open links, with its
 * activity rows, in one transaction; the email follows the commit. Deciding
 * twice is a 409. Financing (app/invoices/financing.server.ts) and making the
 * client active by an edit (app/clients/clients.server.ts) need the approval.
 */
const UNDECIDED: readonly OnboardingStatus[] = ['pending', 'in_progress'];
/** Tokens are 32 random bytes in base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

type ClientRow = RowOf<typeof Client, 'id' | 'company_name' | 'contact_person' | 'email' | 'status' | 'onboarding_status'>;

export interface KycDecisionResult {
  clientId: string;
  companyName: string;
  decision: KycDecision;
  status: ClientStatus;
  onboardingStatus: OnboardingStatus;
  /** The onboarding instances the decision moved, and how (see applyKycDecision). */
  workflow: Array<{ instanceId: string; effect: KycEffect }>;
  /** The KYC tasks the decision closed. */
  closedTaskIds: string[];
  /** The applicant's address (the client's email), null when it has none. */
  email: string | null;
  /** Whether the email to the applicant went out (reject, request_documents); false without an address or when sending failed. */
  emailSent: boolean;
  documentRequest: { id: string; expiresAt: string } | null;
}

/** POST /api/clients/{id}/kyc-decision and the decision forms. Throws 400, 403, 404, 409. */
export async function decideKyc({ actor, clientId, input, ip }: ClientCommand<KycDecisionInput | unknown>): Promise<KycDecisionResult> {
  assertCan(actor, 'decide:kyc');
  const parsed = kycDecisionSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const { decision, reason, message } = parsed.data;
  if (!isUuid(clientId)) throw apiError(404, KYC_ERRORS.clientNotFound);
  const token = decision === 'request_documents' ? randomBytes(32).toString('base64url') : null;

  const outcome = await inTransaction(async (transaction) => {
    // The instances first, then the client: the order a workflow step takes them in.
    await lockClientOnboarding(clientId, transaction);
    const client = await selectOne<ClientRow>(
      `SELECT id, company_name, contact_person, email, status, onboarding_status FROM clients WHERE id = :clientId FOR UPDATE`,
      { clientId },
      { transaction },
    );
    if (!client) throw apiError(404, KYC_ERRORS.clientNotFound);
    if (!UNDECIDED.includes(client.onboarding_status)) {
      throw apiError(409, KYC_ERRORS.alreadyDecided, { errors: { decision: [KYC_ERRORS.alreadyDecided] } });
    }
    const email = client.email?.trim() || null;
    if (decision === 'request_documents' && !email) throw apiError(409, KYC_ERRORS.noEmail, { errors: { email: [KYC_ERRORS.noEmail] } });

    const next: { status: ClientStatus; onboarding: OnboardingStatus } =
      decision === 'approve'
        ? { status: 'active', onboarding: 'completed' }
        : decision === 'reject'
          ? { status: 'inactive', onboarding: 'rejected' }
          : // Asked for documents, the review is under way; the client stays as it was.
            { status: client.status, onboarding: 'in_progress' };
    await execute(`UPDATE clients SET status = :status, onboarding_status = :onboarding, updated_at = now() WHERE id = :clientId`, { clientId, ...next }, { transaction });

    const closedTaskIds = await closeKycTasks(clientId, decision, actor, ip ?? null, transaction);
    const rejectedLimitRequestIds = decision === 'reject' ? await rejectPendingLimits(client, reason ?? null, actor, ip ?? null, transaction) : [];
    // A link out there is no longer needed once decided, and an older one gives way to the newer request.
    await execute(
      `UPDATE kyc_document_requests SET spent_at = now(), spent_reason = :why
        WHERE client_id = :clientId AND spent_at IS NULL`,
      { clientId, why: decision === 'request_documents' ? 'superseded' : 'decided' },
      { transaction },
    );
    let request: { id: string; expires_at: Date } | null = null;
    if (token) {
      const { rows } = await execute<{ id: string; expires_at: Date }>(
        `INSERT INTO kyc_document_requests (client_id, token_hash, message, requested_by, expires_at)
         VALUES (:clientId, :hash, :message, :actorId, now() + make_interval(days => :days))
         RETURNING id, expires_at`,
        { clientId, hash: hashToken(token), message, actorId: actor.id, days: KYC_REQUEST_TTL_DAYS },
        { transaction },
      );
      request = rows[0];
    }
    const workflow = await applyKycDecision({ clientId, decision, actor, reason: reason ?? null, requestId: request?.id ?? null }, { transaction });

    await logActivity(
      {
        action: decision === 'approve' ? 'client_kyc_approved' : decision === 'reject' ? 'client_kyc_rejected' : 'client_kyc_documents_requested',
        userId: actor.id,
        entityType: 'client',
        entityId: clientId,
        ipAddress: ip ?? null,
        details: {
          companyName: client.company_name,
          status: { old: client.status, new: next.status },
          onboardingStatus: { old: client.onboarding_status, new: next.onboarding },
          ...(reason && decision === 'reject' ? { reason } : {}),
          ...(request ? { message, requestId: request.id, expiresAt: iso(request.expires_at), to: email } : {}),
          ...(decision === 'reject' ? { to: email } : {}),
          workflow,
          closedTaskIds,
          ...(rejectedLimitRequestIds.length > 0 ? { rejectedLimitRequestIds } : {}),
        },
      },
      transaction,
    );
    return { client, next, workflow, closedTaskIds, request, email };
  });

  // After the commit: a decision that rolled back sends nothing. A failed send leaves the decision standing.
  let emailSent = false;
  if (outcome.email && decision !== 'approve') {
    try {
      if (decision === 'reject') {
        await sendRejectionMail({ to: outcome.email, companyName: outcome.client.company_name, reason: reason ?? '' });
      } else if (token && outcome.request) {
        await sendDocumentRequestMail({
          to: outcome.email,
          companyName: outcome.client.company_name,
          message: message ?? '',
          token,
          expiresAt: new Date(outcome.request.expires_at),
        });
      }
      emailSent = true;
    } catch (error) {
      console.error(`kyc: the ${decision} email to the applicant of client ${clientId} could not be sent`, error);
    }
  }
  return {
    clientId,
    companyName: outcome.client.company_name,
    decision,
    status: outcome.next.status,
    onboardingStatus: outcome.next.onboarding,
    workflow: outcome.workflow,
    closedTaskIds: outcome.closedTaskIds,
    email: outcome.email,
    emailSent,
    documentRequest: outcome.request ? { id: outcome.request.id, expiresAt: iso(outcome.request.expires_at) } : null,
  };
}

/** The client's open KYC tasks are done: the decision was their work. Returns their ids. */
function closeKycTasks(clientId: string, decision: KycDecision, actor: Actor, ip: string | null, transaction: Transaction): Promise<string[]> {
  const where = `type = 'kyc_verification' AND entity_type = 'client' AND entity_id = :clientId`;
  return completeOpenTasks({ where, replacements: { clientId } }, { actor, ip }, { kycDecision: decision }, transaction);
}

/**
 * A rejected applicant gets no limit: its pending limit requests (the one it
 * asked for in the wizard, any a manager asked for since) are rejected with
 * the KYC decision, each logged. The decider is recorded unless they asked for
 * that request themselves: four eyes (a request's author never decides it)
 * holds, and the activity row still names them.
 */
async function rejectPendingLimits(client: ClientRow, reason: string | null, actor: Actor, ip: string | null, transaction: Transaction): Promise<string[]> {
  const why = `${KYC_LIMIT_REJECTION}${reason ? `: ${reason}` : ''}`.slice(0, 5000);
  const { rows } = await execute<RowOf<typeof CreditLimitRequest, 'id' | 'requested_limit'>>(
    `UPDATE credit_limit_requests
        SET status = 'rejected', rejection_reason = :why, decided_at = now(), updated_at = now(),
            decided_by = CASE WHEN requested_by = :actorId THEN NULL ELSE CAST(:actorId AS uuid) END
      WHERE client_id = :clientId AND status = 'pending'
      RETURNING id, requested_limit`,
    { clientId: client.id, actorId: actor.id, why },
    { transaction },
  );
  for (const request of rows) {
    await logActivity(
      {
        action: 'credit_limit_rejected',
        userId: actor.id,
        entityType: 'credit_limit_request',
        entityId: request.id,
        ipAddress: ip,
        details: { clientId: client.id, clientName: client.company_name, requestedLimit: request.requested_limit, reason: why, kycDecision: 'reject' },
      },
      transaction,
    );
  }
  return rows.map((request) => request.id);
}

/** The reason a limit request closed by a KYC rejection carries (before the rejection's own reason). */
export const KYC_LIMIT_REJECTION = 'KYC rejected';

/**
 * A client entered by staff goes through the same review as an applicant:
 * inside the creating transaction, the onboarding workflow starts when a
 * definition is active (its review step opens the KYC task), otherwise a KYC
 * task is opened for the client directly.
 */
export async function startKycReview({ clientId, actor, ip }: { clientId: string; actor: Actor; ip?: string | null }, transaction: Transaction): Promise<void> {
  const definition = await selectOne(`SELECT 1 FROM workflow_definitions WHERE type = 'client_onboarding' AND is_active LIMIT 1`, {}, { transaction });
  if (definition) {
    await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId: clientId, actor, ip }, { transaction });
    return;
  }
  await openTask(
    { clientId, type: 'kyc_verification', title: 'KYC pregled', description: 'Pregled KYC dokumentacije klijenta kojeg je unijelo osoblje.', actorId: actor.id },
    transaction,
  );
}

async function openTask(
  input: { clientId: string; type: 'kyc_verification' | 'document_review'; title: string; description: string; actorId: string | null },
  transaction: Transaction,
): Promise<string> {
  const { rows } = await execute<{ id: string }>(
    // The wizard promises a review within 1-3 business days: due in 3 days, as the workflow's review task.
    `INSERT INTO tasks (title, description, type, priority, status, due_date, entity_type, entity_id, created_by)
     VALUES (:title, :description, :type, 'high', 'pending', now() + interval '3 days', 'client', :clientId, :actorId)
     RETURNING id`,
    { ...input, description: input.description.slice(0, 5000) },
    { transaction },
  );
  await logActivity(
    {
      action: 'task_created',
      userId: input.actorId,
      entityType: 'task',
      entityId: rows[0].id,
      details: { title: input.title, type: input.type, priority: 'high', clientId: input.clientId },
    },
    transaction,
  );
  return rows[0].id;
}

// ---------------------------------------------------------------------------
// What the panels of /tasks and /clients/{id} show

export interface KycApplication {
  clientId: string;
  companyName: string;
  email: string | null;
  status: ClientStatus;
  onboardingStatus: OnboardingStatus;
  /** Still to be decided (the three actions are offered). */
  pending: boolean;
  /** The link the applicant may still use, if staff asked for documents. */
  openRequest: { message: string; createdAt: string; expiresAt: string } | null;
  /** The last decision taken, from the activity log. */
  lastDecision: { action: string; reason: string | null; message: string | null; at: string; by: string | null } | null;
  documents: Array<{ id: string; name: string; kycType: KycDocumentType | null; size: number; createdAt: string }>;
}

/** The KYC state of a client (null when it does not exist). */
export async function getKycApplication(clientId: string): Promise<KycApplication | null> {
  if (!isUuid(clientId)) return null;
  const client = await selectOne<ClientRow>(`SELECT id, company_name, contact_person, email, status, onboarding_status FROM clients WHERE id = :clientId`, { clientId });
  if (!client) return null;
  const [request, decision, documents] = await Promise.all([
    selectOne<{ message: string; created_at: Date; expires_at: Date }>(
      `SELECT message, created_at, expires_at FROM kyc_document_requests
        WHERE client_id = :clientId AND spent_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 1`,
      { clientId },
    ),
    selectOne<RowOf<typeof ActivityLog, 'action' | 'details' | 'created_at'> & { user_name: string | null }>(
      `SELECT a.action, a.details, a.created_at, ${sqlUserName('u')} AS user_name
         FROM activity_logs a LEFT JOIN users u ON u.id = a.user_id
        WHERE a.entity_type = 'client' AND a.entity_id = :clientId
          AND a.action IN ('client_kyc_approved', 'client_kyc_rejected', 'client_kyc_documents_requested', 'client_kyc_documents_received')
        ORDER BY a.created_at DESC, a.id DESC LIMIT 1`,
      { clientId },
    ),
    selectRows<RowOf<typeof Document, 'id' | 'name' | 'kyc_type' | 'size' | 'created_at'>>(
      `SELECT id, name, kyc_type, size, created_at FROM documents WHERE entity_type = 'client' AND entity_id = :clientId
        ORDER BY created_at DESC, id DESC LIMIT 50`,
      { clientId },
    ),
  ]);
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    clientId,
    companyName: client.company_name,
    email: client.email,
    status: client.status,
    onboardingStatus: client.onboarding_status,
    pending: UNDECIDED.includes(client.onboarding_status),
    openRequest: request ? { message: request.message, createdAt: iso(request.created_at), expiresAt: iso(request.expires_at) } : null,
    lastDecision: decision
      ? {
          action: decision.action,
          reason: text(decision.details.reason),
          message: text(decision.details.message),
          at: iso(decision.created_at),
          by: decision.user_name,
        }
      : null,
    documents: documents.map((row) => ({ id: row.id, name: row.name, kycType: row.kyc_type, size: Number(row.size), createdAt: iso(row.created_at) })),
  };
}

// ---------------------------------------------------------------------------
// The applicant's side: the emailed link (app/routes/onboarding_.documents.$token.tsx)

export type DocumentRequestState =
  | { state: 'open'; companyName: string; message: string; expiresAt: string }
  | { state: 'submitted'; documents: number }
  | { state: 'spent' }
  | { state: 'expired' }
  | { state: 'unknown' };

interface RequestRow {
  id: string;
  client_id: string;
  message: string;
  expires_at: Date;
  spent_at: Date | null;
  spent_reason: 'submitted' | 'superseded' | 'decided' | null;
  documents_received: number;
  expired: boolean;
  company_name: string;
}

async function findRequest(token: string, options: { transaction?: Transaction } = {}): Promise<RequestRow | null> {
  if (!TOKEN.test(token)) return null;
  return selectOne<RequestRow>(
    `SELECT r.id, r.client_id, r.message, r.expires_at, r.spent_at, r.spent_reason, r.documents_received, r.expires_at <= now() AS expired, c.company_name
       FROM kyc_document_requests r JOIN clients c ON c.id = r.client_id
      WHERE r.token_hash = :hash ${options.transaction ? 'FOR UPDATE OF r' : ''}`,
    { hash: hashToken(token) },
    options,
  );
}

function stateOf(row: RequestRow | null): DocumentRequestState {
  if (!row) return { state: 'unknown' };
  if (row.spent_reason === 'submitted') return { state: 'submitted', documents: row.documents_received };
  if (row.spent_at) return { state: 'spent' };
  if (row.expired) return { state: 'expired' };
  return { state: 'open', companyName: row.company_name, message: row.message, expiresAt: iso(row.expires_at) };
}

/** What the link's page shows. */
export async function documentRequestState(token: string): Promise<DocumentRequestState> {
  return stateOf(await findRequest(token));
}

export const REQUEST_ERRORS = {
  noFiles: 'kyc.upload.noFiles',
  failed: 'onboarding.upload.error',
  tooLarge: 'onboarding.upload.tooLarge',
  invalidType: 'onboarding.upload.invalidType',
} as const;

export type SubmitDocumentsResult =
  { ok: true; documents: number; taskId: string } | { ok: false; status: number; request: DocumentRequestState; formErrors?: string[]; fileErrors?: UploadErrors };

/**
 * The applicant's post through the link: every file is checked by its bytes
 * as the wizard's are (at most 10 MB, PDF/JPG/JPEG/PNG matching the name),
 * and only when all pass are they stored as documents of the request's
 * client, in one transaction with spending the link, telling staff (the
 * review's new KYC task, or a document-review task) and the activity rows.
 * A refused post changes nothing and the link stays usable.
 */
export async function submitRequestedDocuments({ token, files, ip }: { token: string; files: Map<KycDocumentType, FilePart>; ip?: string | null }): Promise<SubmitDocumentsResult> {
  const before = await findRequest(token);
  const state = stateOf(before);
  if (!before || state.state !== 'open') return { ok: false, status: state.state === 'unknown' ? 404 : 410, request: state };
  if (files.size === 0) return { ok: false, status: 400, request: state, formErrors: [REQUEST_ERRORS.noFiles] };

  const fileErrors: UploadErrors = {};
  const checked: Array<{ kycType: KycDocumentType; part: FilePart; mimeType: string }> = [];
  for (const kycType of KYC_DOCUMENT_TYPES) {
    const part = files.get(kycType);
    if (!part) continue;
    try {
      if (part.size > KYC_MAX_FILE_BYTES) throw apiError(413, REQUEST_ERRORS.tooLarge, { params: { max: KYC_MAX_FILE_MB } });
      const { mimeType } = checkUpload({ bytes: part.bytes, fileName: part.fileName, declaredMime: part.contentType, allowed: KYC_EXTENSIONS });
      checked.push({ kycType, part, mimeType });
    } catch (error) {
      const problem = await readApiError(error);
      if (!problem) throw error;
      fileErrors[`file_${kycType}`] = [problem.status === 413 ? REQUEST_ERRORS.tooLarge : REQUEST_ERRORS.invalidType];
    }
  }
  if (Object.keys(fileErrors).length > 0) {
    const status = Object.values(fileErrors).some((list) => list?.includes(REQUEST_ERRORS.tooLarge)) ? 413 : 415;
    return { ok: false, status, request: state, fileErrors };
  }

  // Stored before the transaction (content-addressed puts are idempotent); removed again if it rolls back.
  const stored: Array<(typeof checked)[number] & { object: StoredObject }> = [];
  for (const file of checked) stored.push({ ...file, object: await getObjectStore().put(file.part.bytes, { contentType: file.mimeType }) });
  try {
    return await inTransaction(async (transaction) => {
      // The same lock order as a decision (instances, client, request), so the two cannot deadlock.
      await lockClientOnboarding(before.client_id, transaction);
      await selectOne(`SELECT id FROM clients WHERE id = :id FOR UPDATE`, { id: before.client_id }, { transaction });
      const row = await findRequest(token, { transaction });
      const now = stateOf(row);
      // Decided, superseded or expired while the files were uploading.
      if (!row || now.state !== 'open') throw new RequestClosed(now);

      const documents = [];
      for (const file of stored) {
        await ensureObjectPresent(file.object, file.part.bytes, transaction);
        const name = file.part.fileName.trim().slice(0, 255) || `${file.kycType}.${file.mimeType === 'application/pdf' ? 'pdf' : file.mimeType === 'image/png' ? 'png' : 'jpg'}`;
        const document = await recordStoredDocument(
          {
            actor: null,
            storageKey: file.object.key,
            checksum: file.object.checksum,
            size: file.object.size,
            mimeType: file.mimeType,
            name,
            fileName: file.part.fileName,
            type: DOCUMENT_TYPE_OF_KYC[file.kycType],
            kycType: file.kycType,
            entityType: 'client',
            entityId: row.client_id,
            ip,
          },
          { transaction },
        );
        documents.push({ id: document.id, name, kycType: file.kycType });
      }
      await execute(
        `UPDATE kyc_document_requests SET spent_at = now(), spent_reason = 'submitted', documents_received = :count WHERE id = :id`,
        { id: row.id, count: documents.length },
        { transaction },
      );
      const note = `Podnositelj je dostavio tražene dokumente (${documents.length}): ${documents.map((document) => document.name).join(', ')}`;
      const taskId =
        (await resumeKycReview({ clientId: row.client_id, note }, { transaction })) ??
        (await openTask(
          { clientId: row.client_id, type: 'document_review', title: 'Pregled novih KYC dokumenata', description: `${row.company_name}\n${note}`, actorId: null },
          transaction,
        ));
      await logActivity(
        {
          action: 'client_kyc_documents_received',
          userId: null,
          entityType: 'client',
          entityId: row.client_id,
          ipAddress: ip ?? null,
          details: { requestId: row.id, documents, taskId, source: 'registration' },
        },
        transaction,
      );
      return { ok: true as const, documents: documents.length, taskId };
    });
  } catch (error) {
    for (const file of stored) await deleteObjectIfUnreferenced(file.object.key).catch(() => {});
    if (error instanceof RequestClosed) return { ok: false, status: error.request.state === 'unknown' ? 404 : 410, request: error.request };
    throw error;
  }
}

class RequestClosed extends Error {
  constructor(readonly request: DocumentRequestState) {
    super('document request no longer open');
  }
}
