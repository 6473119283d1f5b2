import { bilingualText, sendMail } from '../email/mailer.server.ts';
import type { PublicUser } from './user-record.server.ts';

/** The one-time link a new staff user follows to choose their password (docs/api.md). */
export async function sendSetPasswordLink(user: Pick<PublicUser, 'email' | 'firstName'>, link: string) {
  await sendMail({
    to: user.email,
    subject: 'FinFlow: postavite lozinku / set your password',
    text: bilingualText(
      [`Pozdrav ${user.firstName},`, '', 'za vas je otvoren korisnički račun u FinFlowu. Lozinku postavite putem ove poveznice (vrijedi 72 sata):', link],
      [`Hello ${user.firstName},`, '', 'an account has been opened for you in FinFlow. Set your password with this link (valid for 72 hours):', link],
    ),
  });
}

/** The one-time link of a forgotten password (app/auth/password-reset.server.ts); it works for one hour. */
export async function sendPasswordResetLink(user: Pick<PublicUser, 'email' | 'firstName'>, link: string) {
  await sendMail({
    to: user.email,
    subject: 'FinFlow: nova lozinka / reset your password',
    text: bilingualText(
      [
        `Pozdrav ${user.firstName},`,
        '',
        'zatražena je nova lozinka za vaš FinFlow račun. Novu lozinku postavite putem ove poveznice (vrijedi 1 sat i može se iskoristiti jednom):',
        link,
        'Postavljanjem nove lozinke odjavljujete se na svim uređajima. Ako niste vi zatražili promjenu, zanemarite ovu poruku: lozinka ostaje ista.',
      ],
      [
        `Hello ${user.firstName},`,
        '',
        'a new password was requested for your FinFlow account. Set it with this link (valid for 1 hour, usable once):',
        link,
        'Setting a new password signs you out on every device. If you did not ask for this, ignore this message: your password stays as it is.',
      ],
    ),
  });
}
