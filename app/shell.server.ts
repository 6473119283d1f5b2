import { QueryTypes } from 'sequelize';
import { getSequelize } from '../db/connection.ts';
import type { PublicUser } from './auth/user-record.server.ts';

interface ShellUser {
  firstName: string;
  lastName: string;
  email: string;
  role: string;
}

/** The data of the app shell (app/components/app-shell.tsx), kept here so the loader does not import the UI. */
export interface ShellData {
  user: ShellUser;
  openTaskCount: number;
  renderedAt: string;
}

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
