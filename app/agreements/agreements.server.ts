import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import type { Actor, ClientCommand } from '../auth/users.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectRows } from '../db.server.ts';
import { deleteObjectIfUnreferenced, storeDocument } from '../documents/documents.server.ts';
import { factorParty } from '../einvoices/factor-party.server.ts';
import { getESignature, type ESignatureAdapter } from '../integrations/esignature.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { money } from '../utils/api-values.ts';
import { businessDay } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { agreementPdf } from './agreement-pdf.server.ts';
import { AGREEMENT_COLUMNS, agreementInForce, type AgreementRow } from './in-force.server.ts';
import { AGREEMENT_ERRORS, agreementTermsSchema, markSignedSchema, type AgreementTerms } from './schemas.ts';

/**
 * Factoring agreements (docs/domain-model.md#agreements, docs/money.md#the-agreement, docs/api.md).
 * A client has one agreement number and versions of it. A signed version is never
 * changed: an edit of it is version n+1 with its own effective day; the latest
 * version, while unsigned, is edited in place. A version is in force once signed
 * (marked by a manager, or reported signed by the e-signature adapter). Each write
 * stores the version's PDF among the client's documents and logs its activity row
 * in the same transaction.
 */
export interface AgreementDto {
  id: string;
  clientId: string;
  number: string;
  version: number;
  effectiveFrom: string;
  validFrom: string;
  validUntil: string | null;
  advanceRate: number;
  feeModel: AgreementRow['fee_model'];
  feeRate: number;
  minimumFee: number;
  adminFee: number;
  documentationFee: number;
  recourse: boolean;
  recourseDays: number | null;
  maxTenorDays: number;
  disclosed: boolean;
  requiresDebtorConfirmation: boolean;
  concentrationLimit: number;
  concentrationThreshold: number;
  signatureStatus: AgreementRow['signature_status'];
  signedOn: string | null;
  /** The name of who marked it signed or sent it to the e-signature service. */
  signedBy: string | null;
  documentId: string | null;
  documentUrl: string | null;
  createdBy: string | null;
}

type ListedRow = AgreementRow & { document_id: string | null; signed_by_name: string | null; created_by_name: string | null };

const SELECT_AGREEMENT = `
  SELECT a.*, ${sqlUserName('s')} AS signed_by_name, ${sqlUserName('u')} AS created_by_name
    FROM (SELECT ${AGREEMENT_COLUMNS}, document_id, signed_by, created_by FROM agreements) a
    LEFT JOIN users s ON s.id = a.signed_by
    LEFT JOIN users u ON u.id = a.created_by`;

function toDto(row: ListedRow): AgreementDto {
  return {
    id: row.id,
    clientId: row.client_id,
    number: row.number,
    version: row.version,
    effectiveFrom: row.effective_from,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    advanceRate: Number(row.advance_rate),
    feeModel: row.fee_model,
    feeRate: Number(row.fee_rate),
    minimumFee: money(row.minimum_fee),
    adminFee: money(row.admin_fee),
    documentationFee: money(row.documentation_fee),
    recourse: row.recourse,
    recourseDays: row.recourse_days,
    maxTenorDays: row.max_tenor_days,
    disclosed: row.disclosed,
    requiresDebtorConfirmation: row.requires_debtor_confirmation,
    concentrationLimit: Number(row.concentration_limit),
    concentrationThreshold: money(row.concentration_threshold),
    signatureStatus: row.signature_status,
    signedOn: row.signed_on,
    signedBy: row.signed_by_name,
    documentId: row.document_id,
    documentUrl: row.document_id ? `/api/documents/${row.document_id}/download` : null,
    createdBy: row.created_by_name,
  };
}

async function readAgreement(id: string, transaction?: Transaction): Promise<AgreementDto> {
  const row = await selectOne<ListedRow>(`${SELECT_AGREEMENT} WHERE a.id = :id`, { id }, { transaction });
  if (!row) throw apiError(404, AGREEMENT_ERRORS.notFound);
  return toDto(row);
}

type ClientParty = RowOf<typeof Client, 'id' | 'company_name' | 'oib' | 'address' | 'postal_code' | 'city' | 'iban' | 'contact_person' | 'email'>;

/** The client row, locked: agreement writes of one client happen one after the other (versions are numbered under this lock). */
async function lockClient(clientId: string, transaction: Transaction, missing: { status: number; code: string }): Promise<ClientParty> {
  const client = isUuid(clientId)
    ? await selectOne<ClientParty>(
        `SELECT id, company_name, oib, address, postal_code, city, iban, contact_person, email FROM clients WHERE id = :clientId FOR UPDATE`,
        { clientId },
        { transaction },
      )
    : null;
  if (!client) throw apiError(missing.status, missing.code);
  return client;
}

/** The agreement row and its client, both locked; 404 for an unknown id. */
async function lockAgreement(id: string, transaction: Transaction): Promise<{ row: AgreementRow & { document_id: string | null }; client: ClientParty }> {
  if (!isUuid(id)) throw apiError(404, AGREEMENT_ERRORS.notFound);
  const found = await selectOne<{ client_id: string }>(`SELECT client_id FROM agreements WHERE id = :id`, { id }, { transaction });
  if (!found) throw apiError(404, AGREEMENT_ERRORS.notFound);
  const client = await lockClient(found.client_id, transaction, { status: 404, code: AGREEMENT_ERRORS.notFound });
  const row = await selectOne<AgreementRow & { document_id: string | null }>(
    `SELECT ${AGREEMENT_COLUMNS}, document_id FROM agreements WHERE id = :id FOR UPDATE`,
    { id },
    { transaction },
  );
  return { row: row!, client };
}

/** 409 when another client's agreement has this number (a number names one contract). */
async function assertNumberFree(number: string, clientId: string, transaction: Transaction): Promise<void> {
  const taken = await selectOne(`SELECT 1 AS taken FROM agreements WHERE lower(number) = lower(:number) AND client_id <> :clientId LIMIT 1`, { number, clientId }, { transaction });
  if (taken) throw apiError(409, AGREEMENT_ERRORS.numberTaken, { params: { number }, errors: { number: [AGREEMENT_ERRORS.numberTaken] } });
}

/** Writes the version's PDF among the client's documents and points the row at it. */
async function attachPdf(id: string, client: ClientParty, actor: Actor, ip: string | null | undefined, transaction: Transaction, stored: string[]): Promise<void> {
  const row = (await selectOne<AgreementRow>(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE id = :id`, { id }, { transaction }))!;
  const bytes = await agreementPdf({
    agreement: row,
    client: {
      companyName: client.company_name,
      oib: client.oib,
      address: client.address,
      postalCode: client.postal_code,
      city: client.city,
      iban: client.iban,
      contactPerson: client.contact_person,
    },
    factor: factorParty(),
  });
  const fileName = `Ugovor o faktoringu ${row.number} v${row.version}.pdf`;
  const document = await storeDocument(
    {
      actor,
      bytes,
      fileName: fileName.replace(/[^\p{L}\p{N}._-]+/gu, '-'),
      declaredMime: 'application/pdf',
      name: fileName,
      type: 'contract',
      entityType: 'client',
      entityId: client.id,
      ip,
    },
    { transaction },
  );
  const key = await selectOne<{ storage_key: string }>(`SELECT storage_key FROM documents WHERE id = :id`, { id: document.id }, { transaction });
  stored.push(key!.storage_key);
  await execute(`UPDATE agreements SET document_id = :documentId WHERE id = :id`, { id, documentId: document.id }, { transaction });
}

/** Runs `work` in a transaction; PDFs stored for a transaction that rolled back are removed again. */
async function withPdfs<T>(work: (transaction: Transaction, stored: string[]) => Promise<T>): Promise<T> {
  const stored: string[] = [];
  try {
    return await inTransaction((transaction) => work(transaction, stored));
  } catch (error) {
    await Promise.all(stored.map((key) => deleteObjectIfUnreferenced(key).catch(() => {})));
    // Two clients taking one number at the same moment: the index on (number, version) lets one through.
    if (isUniqueViolation(error)) throw apiError(409, AGREEMENT_ERRORS.numberTaken, { errors: { number: [AGREEMENT_ERRORS.numberTaken] } });
    throw error;
  }
}

const TERM_COLUMNS = `effective_from = CAST(:effectiveFrom AS date), valid_from = CAST(:validFrom AS date), valid_until = CAST(:validUntil AS date),
  advance_rate = :advanceRate, fee_model = :feeModel, fee_rate = :feeRate, minimum_fee = :minimumFee, admin_fee = :adminFee,
  documentation_fee = :documentationFee, recourse = :recourse, recourse_days = :recourseDays, max_tenor_days = :maxTenorDays,
  disclosed = :disclosed, requires_debtor_confirmation = :requiresDebtorConfirmation, concentration_limit = :concentrationLimit, concentration_threshold = :concentrationThreshold`;

function termValues(terms: AgreementTerms) {
  return { ...terms, validUntil: terms.validUntil ?? null };
}

async function insertVersion(clientId: string, version: number, terms: AgreementTerms, actor: Actor, transaction: Transaction): Promise<string> {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO agreements (client_id, number, version, effective_from, valid_from, valid_until, advance_rate, fee_model, fee_rate, minimum_fee,
                             admin_fee, documentation_fee, recourse, recourse_days, max_tenor_days, disclosed, requires_debtor_confirmation,
                             concentration_limit, concentration_threshold, created_by)
     VALUES (:clientId, :number, :version, CAST(:effectiveFrom AS date), CAST(:validFrom AS date), CAST(:validUntil AS date), :advanceRate, :feeModel,
             :feeRate, :minimumFee, :adminFee, :documentationFee, :recourse, :recourseDays, :maxTenorDays, :disclosed, :requiresDebtorConfirmation,
             :concentrationLimit, :concentrationThreshold, :actorId)
     RETURNING id`,
    { ...termValues(terms), clientId, version, actorId: actor.id },
    { transaction },
  );
  return rows[0].id;
}

/** The terms as the activity log keeps them (what an auditor compares between versions). */
const loggedTerms = (terms: AgreementTerms) => ({ ...terms, validUntil: terms.validUntil ?? null });

/** GET /api/clients/{id}/agreements: every version, newest first. 404 for an unknown client. */
export async function listAgreements(clientId: string): Promise<AgreementDto[]> {
  const client = isUuid(clientId) ? await selectOne(`SELECT 1 AS found FROM clients WHERE id = :clientId`, { clientId }) : null;
  if (!client) throw apiError(404, AGREEMENT_ERRORS.clientNotFound);
  const rows = await selectRows<ListedRow>(`${SELECT_AGREEMENT} WHERE a.client_id = :clientId ORDER BY a.version DESC`, { clientId });
  return rows.map(toDto);
}

/** POST /api/clients/{id}/agreements: version 1, unsigned. 404 unknown client, 409 when the client already has an agreement or the number is another's. */
export async function createAgreement({ actor, clientId, input, ip }: ClientCommand<unknown>): Promise<AgreementDto> {
  assertCan(actor, 'manage:agreement');
  const terms = parseInput(agreementTermsSchema, input);
  return withPdfs(async (transaction, stored) => {
    const client = await lockClient(clientId, transaction, { status: 404, code: AGREEMENT_ERRORS.clientNotFound });
    const existing = await selectOne<{ number: string }>(`SELECT number FROM agreements WHERE client_id = :clientId LIMIT 1`, { clientId: client.id }, { transaction });
    if (existing) throw apiError(409, AGREEMENT_ERRORS.alreadyExists, { params: { number: existing.number } });
    await assertNumberFree(terms.number, client.id, transaction);
    const id = await insertVersion(client.id, 1, terms, actor, transaction);
    await attachPdf(id, client, actor, ip, transaction, stored);
    await logActivity(
      {
        action: 'agreement_created',
        userId: actor.id,
        entityType: 'agreement',
        entityId: id,
        ipAddress: ip,
        details: { clientId: client.id, version: 1, terms: loggedTerms(terms) },
      },
      transaction,
    );
    return readAgreement(id, transaction);
  });
}

/**
 * PUT /api/agreements/{id}: `id` is the client's latest version (409 otherwise).
 * Unsigned (or sent, which the edit withdraws): changed in place, a new PDF. Signed:
 * a new version with the same number, effective not before the latest version's day.
 */
export async function reviseAgreement({ actor, id, input, ip }: { actor: Actor; id: string; input: unknown; ip?: string | null }): Promise<AgreementDto> {
  assertCan(actor, 'manage:agreement');
  const terms = parseInput(agreementTermsSchema, input);
  return withPdfs(async (transaction, stored) => {
    const { row, client } = await lockAgreement(id, transaction);
    const latest = (await selectOne<{ version: number }>(`SELECT max(version) AS version FROM agreements WHERE client_id = :clientId`, { clientId: client.id }, { transaction }))!;
    if (row.version !== latest.version) throw apiError(409, AGREEMENT_ERRORS.notLatest, { params: { version: row.version, latest: latest.version } });
    // A client has one agreement number; only an unsigned first version may still correct it.
    const renumbering = terms.number !== row.number;
    if (renumbering && !(row.version === 1 && row.signature_status !== 'signed')) {
      throw apiError(409, AGREEMENT_ERRORS.numberFixed, { params: { number: row.number }, errors: { number: [AGREEMENT_ERRORS.numberFixed] } });
    }
    if (renumbering) await assertNumberFree(terms.number, client.id, transaction);

    if (row.signature_status !== 'signed') {
      const previous = await selectOne<{ effective_from: string }>(
        `SELECT to_char(effective_from, 'YYYY-MM-DD') AS effective_from FROM agreements WHERE client_id = :clientId AND version = :version`,
        { clientId: client.id, version: row.version - 1 },
        { transaction },
      );
      if (previous && terms.effectiveFrom < previous.effective_from) throw effectiveTooEarly(previous.effective_from);
      await execute(`UPDATE agreements SET number = :number, ${TERM_COLUMNS}, signature_status = 'unsigned' WHERE id = :id`, { ...termValues(terms), id: row.id }, { transaction });
      await attachPdf(row.id, client, actor, ip, transaction, stored);
      await logActivity(
        {
          action: 'agreement_updated',
          userId: actor.id,
          entityType: 'agreement',
          entityId: row.id,
          ipAddress: ip,
          details: { clientId: client.id, version: row.version, previousSignatureStatus: row.signature_status, before: rowTerms(row), terms: loggedTerms(terms) },
        },
        transaction,
      );
      return readAgreement(row.id, transaction);
    }

    if (terms.effectiveFrom < row.effective_from) throw effectiveTooEarly(row.effective_from);
    const newId = await insertVersion(client.id, row.version + 1, { ...terms, number: row.number }, actor, transaction);
    await attachPdf(newId, client, actor, ip, transaction, stored);
    await logActivity(
      {
        action: 'agreement_revised',
        userId: actor.id,
        entityType: 'agreement',
        entityId: newId,
        ipAddress: ip,
        details: { clientId: client.id, version: row.version + 1, previousId: row.id, previousVersion: row.version, terms: loggedTerms(terms) },
      },
      transaction,
    );
    return readAgreement(newId, transaction);
  });
}

function effectiveTooEarly(day: string): Response {
  return apiError(409, AGREEMENT_ERRORS.effectiveBeforeLatest, { params: { day }, errors: { effectiveFrom: [AGREEMENT_ERRORS.effectiveBeforeLatest] } });
}

function rowTerms(row: AgreementRow) {
  return {
    number: row.number,
    effectiveFrom: row.effective_from,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    advanceRate: row.advance_rate,
    feeModel: row.fee_model,
    feeRate: row.fee_rate,
    minimumFee: row.minimum_fee,
    adminFee: row.admin_fee,
    documentationFee: row.documentation_fee,
    recourse: row.recourse,
    recourseDays: row.recourse_days,
    maxTenorDays: row.max_tenor_days,
    disclosed: row.disclosed,
    requiresDebtorConfirmation: row.requires_debtor_confirmation,
    concentrationLimit: row.concentration_limit,
    concentrationThreshold: row.concentration_threshold,
  };
}

/** A version becomes signed (by a manager's mark or the e-signature adapter's report), logged in the same transaction. */
async function recordSigned(
  input: { id: string; version: number; clientId: string; signedOn: string; actorId: string; ip?: string | null; how: Record<string, unknown> },
  transaction: Transaction,
) {
  await execute(
    `UPDATE agreements SET signature_status = 'signed', signed_on = CAST(:signedOn AS date), signed_by = :actorId WHERE id = :id`,
    { id: input.id, signedOn: input.signedOn, actorId: input.actorId },
    { transaction },
  );
  await logActivity(
    {
      action: 'agreement_signed',
      userId: input.actorId,
      entityType: 'agreement',
      entityId: input.id,
      ipAddress: input.ip,
      details: { clientId: input.clientId, version: input.version, signedOn: input.signedOn, ...input.how },
    },
    transaction,
  );
}

/** POST /api/agreements/{id}/mark-signed {signedOn}: a manager records the paper signature. 400 for a day in the future, 409 when already signed. */
export async function markAgreementSigned({ actor, id, signedOn, ip }: { actor: Actor; id: string; signedOn: unknown; ip?: string | null }): Promise<AgreementDto> {
  assertCan(actor, 'manage:agreement');
  const data = parseInput(markSignedSchema, { signedOn });
  if (data.signedOn > businessDay()) throw apiError(400, AGREEMENT_ERRORS.signedOnFuture, { errors: { signedOn: [AGREEMENT_ERRORS.signedOnFuture] } });
  return inTransaction(async (transaction) => {
    const { row, client } = await lockAgreement(id, transaction);
    if (row.signature_status === 'signed') throw apiError(409, AGREEMENT_ERRORS.alreadySigned, { params: { version: row.version } });
    await recordSigned({ id: row.id, version: row.version, clientId: client.id, signedOn: data.signedOn, actorId: actor.id, ip, how: { via: 'manual' } }, transaction);
    return readAgreement(row.id, transaction);
  });
}

/**
 * POST /api/agreements/{id}/send-for-signature: the version's PDF goes to the
 * client's signer through the e-signature adapter (status 'sent', logged); when
 * the adapter reports it signed, the version is signed on that business day. A
 * failing adapter leaves it 'sent' (send again, or mark it signed). `adapter` is for tests.
 */
export async function sendAgreementForSignature({ actor, id, ip, adapter }: { actor: Actor; id: string; ip?: string | null; adapter?: ESignatureAdapter }): Promise<AgreementDto> {
  assertCan(actor, 'manage:agreement');
  const sent = await inTransaction(async (transaction) => {
    const { row, client } = await lockAgreement(id, transaction);
    if (row.signature_status === 'signed') throw apiError(409, AGREEMENT_ERRORS.alreadySigned, { params: { version: row.version } });
    if (!client.email) throw apiError(409, AGREEMENT_ERRORS.noSignerEmail);
    const document = await selectOne<{ id: string; checksum: string; name: string }>(
      `SELECT id, checksum, name FROM documents WHERE id = :id`,
      { id: row.document_id },
      { transaction },
    );
    if (!document) throw apiError(409, AGREEMENT_ERRORS.noDocument);
    await execute(`UPDATE agreements SET signature_status = 'sent' WHERE id = :id`, { id: row.id }, { transaction });
    await logActivity(
      {
        action: 'agreement_sent_for_signature',
        userId: actor.id,
        entityType: 'agreement',
        entityId: row.id,
        ipAddress: ip,
        details: { clientId: client.id, version: row.version, documentId: document.id, signer: client.email },
      },
      transaction,
    );
    return { row, client, document: { id: document.id, checksum: document.checksum.trim(), name: document.name } };
  });
  const signer = { id: sent.client.id, name: sent.client.contact_person || sent.client.company_name, email: sent.client.email! };
  let signed: { signatureId: string; signedAt: Date };
  try {
    signed = await getESignature(adapter).sign(sent.document, signer);
  } catch (error) {
    // The service did not sign (it is logged in integration_logs): the version stays 'sent'.
    throw apiError(502, AGREEMENT_ERRORS.signatureFailed, { params: { reason: error instanceof Error ? error.message : String(error) } });
  }
  const { signatureId, signedAt } = signed;
  return inTransaction(async (transaction) => {
    const { row } = await lockAgreement(id, transaction);
    // Edited or marked signed meanwhile: the report is about a document that is no longer this version's.
    if (row.signature_status !== 'sent' || row.document_id !== sent.document.id) return readAgreement(row.id, transaction);
    const signedOn = businessDay(signedAt);
    await recordSigned({ id: row.id, version: row.version, clientId: row.client_id, signedOn, actorId: actor.id, ip, how: { via: 'esignature', signatureId } }, transaction);
    return readAgreement(row.id, transaction);
  });
}

/** The version in force on the business day `day` (today unless told) in its API shape, or null: without one the client cannot be financed. */
export async function agreementInForceDto(clientId: string, day: string = businessDay()): Promise<AgreementDto | null> {
  const row = await agreementInForce(clientId, day);
  return row ? readAgreement(row.id) : null;
}
