import { sendMail } from '../email/mailer.server.ts';
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

export async function sendRejectionMail(input: { to: string; companyName: string; reason: string }) {
  await sendMail({
    to: input.to,
    subject: 'FinFlow: zahtjev za registraciju nije odobren / registration not approved',
    text: [
      `Poštovani, ${input.companyName},`,
      '',
      'zahvaljujemo na zahtjevu za registraciju na platformi za faktoring FinFlow. Nakon pregleda dokumentacije (KYC) zahtjev nažalost nismo mogli odobriti.',
      '',
      `Razlog: ${input.reason}`,
      '',
      'S poštovanjem,',
      'FinFlow',
      '',
      '---',
      '',
      `Dear ${input.companyName},`,
      '',
      'thank you for registering with the FinFlow factoring platform. Having reviewed your documents (KYC), we are unable to approve the registration.',
      '',
      `Reason: ${input.reason}`,
    ].join('\n'),
  });
}

export async function sendDocumentRequestMail(input: { to: string; companyName: string; message: string; token: string; expiresAt: Date }) {
  const link = documentRequestLink(input.token);
  const until = formatDate(input.expiresAt);
  await sendMail({
    to: input.to,
    subject: 'FinFlow: potrebni su dodatni dokumenti / more documents needed',
    text: [
      `Poštovani, ${input.companyName},`,
      '',
      'za pregled vašeg zahtjeva za registraciju (KYC) potrebni su nam dodatni dokumenti:',
      '',
      input.message,
      '',
      `Dokumente dodajte putem ove poveznice (vrijedi do ${until}):`,
      link,
      '',
      'S poštovanjem,',
      'FinFlow',
      '',
      '---',
      '',
      `Dear ${input.companyName},`,
      '',
      'to review your registration (KYC) we need more documents:',
      '',
      input.message,
      '',
      `Add them through this link (valid until ${until}):`,
      link,
    ].join('\n'),
  });
}
