import { QueryTypes } from 'sequelize';
import { getSequelize } from '../db/connection.ts';
import type { PublicUser } from './auth/user-record.server.ts';
import type { ShellData } from './components/app-shell.tsx';

/** What the app shell shows around every signed-in page: the user and the bell's count of their open tasks. */
export async function loadShell(user: PublicUser): Promise<ShellData> {
  const [{ count }] = await getSequelize().query<{ count: number }>(
    "SELECT count(*)::int AS count FROM tasks WHERE assigned_to = :userId AND status IN ('pending', 'in_progress')",
    { replacements: { userId: user.id }, type: QueryTypes.SELECT },
  );
  return {
    user: { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role },
    openTaskCount: count,
    renderedAt: new Date().toISOString(),
  };
}
