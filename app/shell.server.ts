import type { PublicUser } from './auth/user-record.server.ts';
import { openTaskCount } from './tasks/open-count.server.ts';

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
export async function loadShell(user: PublicUser, request?: Request): Promise<ShellData> {
  const count = await openTaskCount(user.id, request);
  return {
    user: { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role },
    openTaskCount: count,
    renderedAt: new Date().toISOString(),
  };
}
