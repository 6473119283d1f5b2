import { QueryTypes, type Sequelize } from 'sequelize';
import { generatePassword, hashPassword } from '../app/auth/password.server.ts';

/**
 * README.md: the first start creates a super_admin so somebody can sign in.
 * Runs only while no super_admin exists; it never overwrites an existing
 * account. Returns the generated password (to print once) when none was given.
 */
export async function ensureFirstAdmin(
  sequelize: Sequelize,
  { email, password }: { email: string; password?: string },
): Promise<{ created: false } | { created: true; email: string; generatedPassword?: string }> {
  const [{ count }] = await sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM users WHERE role = 'super_admin'", { type: QueryTypes.SELECT });
  if (count > 0) return { created: false };
  const plain = password ?? generatePassword();
  const normalizedEmail = email.trim().toLowerCase();
  const [existing] = await sequelize.query('SELECT 1 FROM users WHERE email = :email', {
    replacements: { email: normalizedEmail },
    type: QueryTypes.SELECT,
  });
  if (existing) throw new Error(`ADMIN_EMAIL ${normalizedEmail} belongs to an existing user who is not a super_admin.`);
  await sequelize.transaction(async (transaction) => {
    const [user] = await sequelize.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, role, password_hash)
       VALUES (:email, 'Admin', 'FinFlow', 'super_admin', :hash)
       RETURNING id`,
      { replacements: { email: normalizedEmail, hash: await hashPassword(plain) }, type: QueryTypes.SELECT, transaction },
    );
    await sequelize.query(`INSERT INTO activity_logs (action, entity_type, entity_id, details) VALUES ('user_created', 'user', :id, :details)`, {
      replacements: { id: user.id, details: JSON.stringify({ email: normalizedEmail, role: 'super_admin', via: 'first start' }) },
      transaction,
    });
  });
  return { created: true, email: normalizedEmail, ...(password ? {} : { generatedPassword: plain }) };
}
