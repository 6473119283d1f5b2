import type { Transaction } from 'sequelize';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { getObjectStore, type StoredObject } from '../storage/object-store.server.ts';

/**
 * Objects are shared by content address, so a file may be deleted only when
 * no documents row, upload slot or registration draft references it. Writers that reference a
 * key hold a shared advisory lock on it while they commit; the deleter holds
 * the exclusive one while it checks and deletes. Either the deleter sees the
 * new reference, or the writer sees the file gone and puts it back.
 */
async function lockKey(key: string, mode: 'shared' | 'exclusive', transaction: Transaction): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await execute(`SELECT ${fn}(hashtextextended(:key, 0))`, { key: `object:${key}` }, { transaction });
}

/** Inside the transaction that inserts a reference to `stored`: makes sure its bytes are (still) there. */
export async function ensureObjectPresent(stored: StoredObject, bytes: Buffer, transaction: Transaction): Promise<void> {
  await lockKey(stored.key, 'shared', transaction);
  const store = getObjectStore();
  if (!(await store.exists(stored.key))) await store.put(bytes);
}

/** For references to bytes already in the store (claimed uploads): false when the file is gone. */
export async function lockExistingObject(key: string, transaction: Transaction): Promise<boolean> {
  await lockKey(key, 'shared', transaction);
  return getObjectStore().exists(key);
}

/**
 * Deletes the file of `key` when nothing references it any more; true when
 * it did. Callers whose transaction rolled back after storing bytes (the
 * registration wizard) use this so a refused submit leaves no file behind.
 */
export async function deleteObjectIfUnreferenced(key: string): Promise<boolean> {
  return inTransaction(async (transaction) => {
    await lockKey(key, 'exclusive', transaction);
    const referenced = await selectOne<{ referenced: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM documents WHERE storage_key = :key)
           OR EXISTS (SELECT 1 FROM upload_objects WHERE storage_key = :key)
           OR EXISTS (SELECT 1 FROM registration_draft_files WHERE storage_key = :key) AS referenced`,
      { key },
      { transaction },
    );
    if (referenced?.referenced) return false;
    await getObjectStore().delete(key);
    return true;
  });
}
