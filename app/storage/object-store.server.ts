import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where document bytes live. The database keeps only the key, checksum and
 * size; the bytes sit in an object store so web and worker replicas share them
 * (README.md). The disk store below is the default; an S3-style store can
 * implement the same interface.
 */
export interface StoredObject {
  /** Content address: `sha256/ab/cdef…` (the first two hex digits fan out the folders). */
  key: string;
  /** SHA-256 of the bytes, lower-case hex (documents.checksum). */
  checksum: string;
  size: number;
}

export interface ObjectMeta {
  /** Informational only: identical bytes share one object whatever their metadata. */
  contentType?: string;
}

export interface ObjectStore {
  put(bytes: Buffer, meta?: ObjectMeta): Promise<StoredObject>;
  /** Rejects with an error whose `code` is 'ENOENT' when the key is unknown. */
  get(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  /**
   * Removes the object; unknown keys are fine. Objects are shared by content,
   * so callers delete only what no row references any more.
   */
  delete(key: string): Promise<void>;
}

const KEY_FORMAT = /^sha256\/([0-9a-f]{2})\/([0-9a-f]{62})$/;

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function objectKeyFor(checksum: string): string {
  return `sha256/${checksum.slice(0, 2)}/${checksum.slice(2)}`;
}

/**
 * Content-addressed files under `${root}`. Writing the same bytes twice is a
 * no-op, and a file appears only complete: it is written to a temporary name
 * in the same folder and renamed, which is atomic on one file system.
 */
export class DiskObjectStore implements ObjectStore {
  constructor(readonly root: string) {}

  /** Keys are validated, so a crafted key can never reach outside the root. */
  private pathOf(key: string): string {
    const match = KEY_FORMAT.exec(key);
    if (!match) throw Object.assign(new Error(`Invalid object key: ${JSON.stringify(key)}`), { code: 'EINVAL' });
    return path.join(this.root, 'sha256', match[1], match[2]);
  }

  async put(bytes: Buffer, _meta?: ObjectMeta): Promise<StoredObject> {
    const checksum = sha256Hex(bytes);
    const key = objectKeyFor(checksum);
    const target = this.pathOf(key);
    const stored = { key, checksum, size: bytes.length };
    if (await this.exists(key)) return stored;

    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await fs.open(temporary, 'wx', 0o640);
      try {
        await handle.writeFile(bytes);
        // Flush before the rename, so a crash cannot leave a complete name over incomplete bytes.
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
    return stored;
  }

  async get(key: string): Promise<Buffer> {
    return fs.readFile(this.pathOf(key));
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}

const stores = new Map<string, ObjectStore>();

/** The store under `${DATA_DIR}/objects` (DATA_DIR defaults to ./.data), one per folder. */
export function getObjectStore(): ObjectStore {
  const root = path.resolve(process.env.DATA_DIR || './.data', 'objects');
  let store = stores.get(root);
  if (!store) {
    store = new DiskObjectStore(root);
    stores.set(root, store);
  }
  return store;
}
