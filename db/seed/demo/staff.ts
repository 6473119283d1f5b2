import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { type Clock, DAY, HOUR, date } from './plumbing.ts';
import { asciiSlug } from './croatia.ts';

// ---------------------------------------------------------------------------
// Staff

export interface Staff {
  id: string;
  name: string;
  role: 'user' | 'manager' | 'admin';
}
export interface StaffSet {
  all: Staff[];
  /** The ids this run inserted (not pre-existing accounts with a demo email). */
  inserted: Set<string>;
  /** Managers and admins: they verify, approve, finance, confirm and decide limits. */
  deciders: Staff[];
}

const DEMO_STAFF: ReadonlyArray<readonly [string, string, Staff['role']]> = [
  ['Ana', 'Horvat', 'manager'],
  ['Marko', 'Kovačević', 'user'],
  ['Ivana', 'Babić', 'user'],
  ['Luka', 'Marić', 'manager'],
  ['Petra', 'Jurić', 'admin'],
  ['Tomislav', 'Novak', 'user'],
];

/**
 * Demo staff have no password, so nobody can sign in as them; they exist to
 * be the creators, deciders and assignees of the book. An existing user with
 * the same email is reused rather than overwritten.
 */
export async function insertStaff(sequelize: Sequelize, transaction: Transaction, clock: Clock): Promise<StaffSet> {
  const rows = DEMO_STAFF.map(([first, last, role], index) => ({
    id: randomUUID(),
    email: `${asciiSlug(first)}.${asciiSlug(last)}@finflow.local`,
    first_name: first,
    last_name: last,
    role,
    is_active: true,
    password_hash: null,
    created_at: date(clock.midnight - (800 - index) * DAY + 8 * HOUR),
  }));
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = Object.values(row).map((value) => {
      values.push(value);
      return `$${values.length}`;
    });
    return `(${placeholders.join(', ')})`;
  });
  const inserted = (await sequelize.query(`INSERT INTO users (${Object.keys(rows[0]).join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (email) DO NOTHING RETURNING id`, {
    bind: values,
    transaction,
    type: QueryTypes.SELECT,
  })) as Array<{ id: string }>;
  const [found] = (await sequelize.query('SELECT id, email, role FROM users WHERE email IN (:emails)', {
    replacements: { emails: rows.map((row) => row.email) },
    transaction,
  })) as [Array<{ id: string; email: string; role: string }>, unknown];
  const all = rows.map((row) => {
    const user = found.find((candidate) => candidate.email === row.email)!;
    const role = (['user', 'manager', 'admin'].includes(user.role) ? user.role : 'admin') as Staff['role'];
    return { id: user.id, name: `${row.first_name} ${row.last_name}`, role };
  });
  return {
    all,
    inserted: new Set(inserted.map((row) => row.id)),
    deciders: all.filter((user) => user.role !== 'user'),
  };
}
