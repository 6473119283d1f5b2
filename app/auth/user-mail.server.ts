import { sendMail } from '../email/mailer.server.ts';
import type { PublicUser } from './user-record.server.ts';

/** The one-time link a new staff user follows to choose their password (DESIGN §9). */
export async function sendSetPasswordLink(user: Pick<PublicUser, 'email' | 'firstName'>, link: string) {
  await sendMail({
    to: user.email,
    subject: 'FinFlow: postavite lozinku / set your password',
    text: [
      `Pozdrav ${user.firstName},`,
      '',
      'za vas je otvoren korisnički račun u FinFlowu. Lozinku postavite putem ove poveznice (vrijedi 72 sata):',
      link,
      '',
      `Hello ${user.firstName},`,
      '',
      'an account has been opened for you in FinFlow. Set your password with this link (valid for 72 hours):',
      link,
    ].join('\n'),
  });
}
