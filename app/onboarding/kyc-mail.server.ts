import { bilingualText, sendMail } from '../email/mailer.server.ts';
import { getEnv } from '../env.server.ts';
import { formatDate } from '../utils/format.ts';

/**
 * The system mails of the KYC decision to the applicant (not staff
 * templates: the five template triggers stay as they are). Croatian first,
 * English below, as the set-password mail (app/auth/user-mail.server.ts).
 */
export function documentRequestLink(token: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, '')}/onboarding/documents/${token}`;
}

/** A KYC mail to the applicant: the company addressed in both languages, the Croatian part signed. */
async function sendKycMail(input: { to: string; companyName: string }, subject: string, hr: string[], en: string[]) {
  await sendMail({
    to: input.to,
    subject,
    text: bilingualText([`Poštovani, ${input.companyName},`, '', ...hr], [`Dear ${input.companyName},`, '', ...en], ['S poštovanjem,', 'FinFlow']),
  });
}

export async function sendRejectionMail(input: { to: string; companyName: string; reason: string }) {
  await sendKycMail(
    input,
    'FinFlow: zahtjev za registraciju nije odobren / registration not approved',
    [
      'zahvaljujemo na zahtjevu za registraciju na platformi za faktoring FinFlow. Nakon pregleda dokumentacije (KYC) zahtjev nažalost nismo mogli odobriti.',
      '',
      `Razlog: ${input.reason}`,
    ],
    [
      'thank you for registering with the FinFlow factoring platform. Having reviewed your documents (KYC), we are unable to approve the registration.',
      '',
      `Reason: ${input.reason}`,
    ],
  );
}

export async function sendDocumentRequestMail(input: { to: string; companyName: string; message: string; token: string; expiresAt: Date }) {
  const link = documentRequestLink(input.token);
  const until = formatDate(input.expiresAt);
  await sendKycMail(
    input,
    'FinFlow: potrebni su dodatni dokumenti / more documents needed',
    [
      'za pregled vašeg zahtjeva za registraciju (KYC) potrebni su nam dodatni dokumenti:',
      '',
      input.message,
      '',
      `Dokumente dodajte putem ove poveznice (vrijedi do ${until}):`,
      link,
    ],
    ['to review your registration (KYC) we need more documents:', '', input.message, '', `Add them through this link (valid until ${until}):`, link],
  );
}
