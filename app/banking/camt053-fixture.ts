import { escapeXml } from '../xml/writer.ts';

/**
 * Builds small camt.053.001.08 statements for tests and demos (the shape a
 * Croatian bank sends: one Stmt, booked entries with AcctSvcrRef, the payer
 * and the remittance information). Used by *.test.ts and the e2e test only.
 */
export interface FixtureEntry {
  ref: string;
  amount: string;
  credit?: boolean;
  bookingDate?: string;
  debtorName?: string;
  debtorIban?: string;
  /** Unstructured remittance text. */
  ustrd?: string;
  /** Structured creditor reference ('HR00 2025-0042'). */
  creditorRef?: string;
}

const esc = escapeXml;

export function camt053Fixture({ iban, statementId, entries, date = '2026-11-20' }: { iban: string; statementId: string; entries: FixtureEntry[]; date?: string }): string {
  const ntry = entries
    .map(
      (e) => `      <Ntry>
        <NtryRef>${esc(e.ref)}</NtryRef>
        <Amt Ccy="EUR">${e.amount}</Amt>
        <CdtDbtInd>${e.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${e.bookingDate ?? date}</Dt></BookgDt>
        <ValDt><Dt>${e.bookingDate ?? date}</Dt></ValDt>
        <AcctSvcrRef>${esc(e.ref)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <RltdPties>
              <Dbtr><Pty><Nm>${esc(e.debtorName ?? 'Kupac d.d.')}</Nm></Pty></Dbtr>
              ${e.debtorIban ? `<DbtrAcct><Id><IBAN>${e.debtorIban}</IBAN></Id></DbtrAcct>` : ''}
            </RltdPties>
            <RmtInf>
              ${e.ustrd ? `<Ustrd>${esc(e.ustrd)}</Ustrd>` : ''}
              ${e.creditorRef ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Prtry>HR</Prtry></CdOrPrtry></Tp><Ref>${esc(e.creditorRef)}</Ref></CdtrRefInf></Strd>` : ''}
            </RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr>
      <MsgId>MSG-${esc(statementId)}</MsgId>
      <CreDtTm>${date}T18:00:00+01:00</CreDtTm>
    </GrpHdr>
    <Stmt>
      <Id>${esc(statementId)}</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <CreDtTm>${date}T18:00:00+01:00</CreDtTm>
      <FrToDt><FrDtTm>${date}T00:00:00+01:00</FrDtTm><ToDtTm>${date}T23:59:59+01:00</ToDtTm></FrToDt>
      <Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>
${ntry}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
