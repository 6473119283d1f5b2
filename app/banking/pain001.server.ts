import { centsToDecimalString, sumCents, toCents } from '../utils/money.ts';
import { isValidBic, type FactorAccount } from './factor-account.server.ts';
import { isValidIban } from './iban.ts';
import { child, children, textAt } from '../xml/reader.server.ts';
import { escapeXml } from '../xml/writer.ts';
import { parseBankXml } from './xml.server.ts';

/**
 * ISO 20022 pain.001.001.09 (customer credit transfer initiation) as SEPA
 * credit transfers: one group header, one payment information block with the
 * factor as debtor, one CdtTrfTxInf per payout. `validatePain001` reads a
 * file back and checks what the bank's validator checks first (required
 * elements in place, counts and control sums, IBAN check digits, BIC, amounts
 * > 0 with 2 decimals, identifier lengths), so a broken file never leaves.
 */
export const PAIN001_NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

export interface CreditTransfer {
  /** ≤ 35 characters, unique per transfer: the bank returns it on the statement. */
  endToEndId: string;
  amountCents: number;
  currency: string;
  creditorName: string;
  creditorIban: string;
  /** Unstructured remittance information, ≤ 140 characters. */
  remittance: string;
}

export interface Pain001Input {
  messageId: string;
  paymentInfoId: string;
  createdAt: Date;
  /** 'YYYY-MM-DD'. */
  executionDate: string;
  debtor: FactorAccount;
  transfers: CreditTransfer[];
}

/** SEPA text fields: no control characters, single spaces, cut to the field's length. */
export function sepaText(value: string, max: number): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max)
  );
}

/** CreDtTm as local ISO time without fraction (ISODateTime). */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function buildPain001(input: Pain001Input): string {
  const total = sumCents(input.transfers.map((t) => t.amountCents));
  const count = input.transfers.length;
  const e = escapeXml;
  const tx = input.transfers
    .map(
      (t) => `      <CdtTrfTxInf>
        <PmtId>
          <InstrId>${e(t.endToEndId)}</InstrId>
          <EndToEndId>${e(t.endToEndId)}</EndToEndId>
        </PmtId>
        <Amt>
          <InstdAmt Ccy="${e(t.currency)}">${centsToDecimalString(t.amountCents)}</InstdAmt>
        </Amt>
        <Cdtr>
          <Nm>${e(sepaText(t.creditorName, 140))}</Nm>
        </Cdtr>
        <CdtrAcct>
          <Id>
            <IBAN>${e(t.creditorIban)}</IBAN>
          </Id>
        </CdtrAcct>
        <RmtInf>
          <Ustrd>${e(sepaText(t.remittance, 140))}</Ustrd>
        </RmtInf>
      </CdtTrfTxInf>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${PAIN001_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>${e(input.messageId)}</MsgId>
      <CreDtTm>${isoSeconds(input.createdAt)}</CreDtTm>
      <NbOfTxs>${count}</NbOfTxs>
      <CtrlSum>${centsToDecimalString(total)}</CtrlSum>
      <InitgPty>
        <Nm>${e(sepaText(input.debtor.name, 140))}</Nm>
      </InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>${e(input.paymentInfoId)}</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <BtchBookg>true</BtchBookg>
      <NbOfTxs>${count}</NbOfTxs>
      <CtrlSum>${centsToDecimalString(total)}</CtrlSum>
      <PmtTpInf>
        <SvcLvl>
          <Cd>SEPA</Cd>
        </SvcLvl>
      </PmtTpInf>
      <ReqdExctnDt>
        <Dt>${e(input.executionDate)}</Dt>
      </ReqdExctnDt>
      <Dbtr>
        <Nm>${e(sepaText(input.debtor.name, 140))}</Nm>
      </Dbtr>
      <DbtrAcct>
        <Id>
          <IBAN>${e(input.debtor.iban)}</IBAN>
        </Id>
      </DbtrAcct>
      <DbtrAgt>
        <FinInstnId>
          <BICFI>${e(input.debtor.bic)}</BICFI>
        </FinInstnId>
      </DbtrAgt>
      <ChrgBr>SLEV</ChrgBr>
${tx}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}

export interface Pain001Summary {
  messageId: string | null;
  nbOfTxs: number | null;
  ctrlSumCents: number | null;
  debtorIban: string | null;
  executionDate: string | null;
  transactions: Array<{
    endToEndId: string | null;
    amountCents: number | null;
    currency: string | null;
    creditorName: string | null;
    creditorIban: string | null;
    remittance: string | null;
  }>;
}

const AMOUNT = /^\d{1,13}\.\d{2}$/;
const ID35 = /^[^\s].{0,34}$/;

function cents(value: string | null): number | null {
  if (value === null || !AMOUNT.test(value)) return null;
  return toCents(value);
}

/** Reads a pain.001.001.09 and lists every structural problem; an empty `errors` means the bank will take it. */
export function validatePain001(xml: string): { errors: string[]; summary: Pain001Summary } {
  const errors: string[] = [];
  const doc = parseBankXml(xml);
  if (doc.name !== 'Document' || doc.ns !== PAIN001_NS) errors.push(`Root must be Document in ${PAIN001_NS}`);
  const initiation = child(doc, 'CstmrCdtTrfInitn');
  const header = child(initiation, 'GrpHdr');
  if (!header) errors.push('GrpHdr is required');
  const messageId = textAt(header, 'MsgId');
  if (!messageId || !ID35.test(messageId)) errors.push('GrpHdr/MsgId is required (1–35 characters)');
  if (!textAt(header, 'CreDtTm') || Number.isNaN(Date.parse(textAt(header, 'CreDtTm')!))) errors.push('GrpHdr/CreDtTm must be a date-time');
  if (!textAt(header, 'InitgPty/Nm')) errors.push('GrpHdr/InitgPty/Nm is required');
  const groupCount = Number(textAt(header, 'NbOfTxs'));
  const groupSum = cents(textAt(header, 'CtrlSum'));

  const blocks = children(initiation, 'PmtInf');
  if (blocks.length === 0) errors.push('At least one PmtInf is required');
  const summary: Pain001Summary = {
    messageId,
    nbOfTxs: Number.isInteger(groupCount) ? groupCount : null,
    ctrlSumCents: groupSum,
    debtorIban: null,
    executionDate: null,
    transactions: [],
  };
  const endToEndIds = new Set<string>();
  for (const [index, block] of blocks.entries()) {
    const where = `PmtInf[${index + 1}]`;
    const id = textAt(block, 'PmtInfId');
    if (!id || !ID35.test(id)) errors.push(`${where}/PmtInfId is required (1–35 characters)`);
    if (textAt(block, 'PmtMtd') !== 'TRF') errors.push(`${where}/PmtMtd must be TRF`);
    if (textAt(block, 'PmtTpInf/SvcLvl/Cd') !== 'SEPA') errors.push(`${where}/PmtTpInf/SvcLvl/Cd must be SEPA`);
    const date = textAt(block, 'ReqdExctnDt/Dt');
    if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) errors.push(`${where}/ReqdExctnDt/Dt must be a date`);
    summary.executionDate ??= date;
    if (!textAt(block, 'Dbtr/Nm')) errors.push(`${where}/Dbtr/Nm is required`);
    const debtorIban = textAt(block, 'DbtrAcct/Id/IBAN');
    if (!isValidIban(debtorIban)) errors.push(`${where}/DbtrAcct IBAN is invalid`);
    summary.debtorIban ??= debtorIban;
    const bic = textAt(block, 'DbtrAgt/FinInstnId/BICFI');
    if (bic !== null && !isValidBic(bic)) errors.push(`${where}/DbtrAgt BIC is invalid`);
    if (textAt(block, 'ChrgBr') !== 'SLEV') errors.push(`${where}/ChrgBr must be SLEV`);
    const transfers = children(block, 'CdtTrfTxInf');
    if (transfers.length === 0) errors.push(`${where} has no CdtTrfTxInf`);
    const amounts: number[] = [];
    for (const [n, transfer] of transfers.entries()) {
      const at = `${where}/CdtTrfTxInf[${n + 1}]`;
      const endToEndId = textAt(transfer, 'PmtId/EndToEndId');
      if (!endToEndId || !ID35.test(endToEndId)) errors.push(`${at}/EndToEndId is required (1–35 characters)`);
      else if (endToEndIds.has(endToEndId)) errors.push(`${at}/EndToEndId ${endToEndId} is repeated`);
      else endToEndIds.add(endToEndId);
      const amountNode = child(transfer, 'Amt/InstdAmt');
      const amount = cents(amountNode?.text ?? null);
      if (amount === null || amount <= 0) errors.push(`${at}/Amt/InstdAmt must be > 0 with 2 decimals`);
      else amounts.push(amount);
      const currency = amountNode?.attrs.Ccy ?? null;
      if (currency !== 'EUR') errors.push(`${at}/Amt/InstdAmt currency must be EUR for SEPA`);
      const name = textAt(transfer, 'Cdtr/Nm');
      if (!name || name.length > 140) errors.push(`${at}/Cdtr/Nm is required (≤ 140 characters)`);
      const iban = textAt(transfer, 'CdtrAcct/Id/IBAN');
      if (!isValidIban(iban)) errors.push(`${at}/CdtrAcct IBAN ${iban ?? ''} is invalid`);
      const remittance = textAt(transfer, 'RmtInf/Ustrd');
      if (remittance !== null && remittance.length > 140) errors.push(`${at}/RmtInf/Ustrd is longer than 140 characters`);
      summary.transactions.push({ endToEndId, amountCents: amount, currency, creditorName: name, creditorIban: iban, remittance });
    }
    if (Number(textAt(block, 'NbOfTxs')) !== transfers.length) errors.push(`${where}/NbOfTxs does not match the transactions`);
    if (cents(textAt(block, 'CtrlSum')) !== sumCents(amounts)) errors.push(`${where}/CtrlSum does not match the amounts`);
  }
  if (summary.nbOfTxs !== summary.transactions.length) errors.push('GrpHdr/NbOfTxs does not match the transactions');
  const all = summary.transactions.map((t) => t.amountCents ?? 0);
  if (groupSum === null || groupSum !== sumCents(all)) errors.push('GrpHdr/CtrlSum does not match the amounts');
  return { errors, summary };
}
