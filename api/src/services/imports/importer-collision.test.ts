/**
 * The importer finds duplicates by hash (email-set.ts) and confirms them. Here the hashes of the
 * first copies are made to collide, as a real collision would (about once in 20,000 imports of ten
 * million addresses): the import must still come out exact.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { DUPLICATE_EMAIL } from '../contacts/email.js';
import { IMPORT_FAILED_ERROR, importContacts } from './importer.js';
import { folderSpool } from '../../spool/folder-spool.js';
import { importRepository } from './repository.js';

const collisions = vi.hoisted(() => ({
  /** The key the next sets call seen although it is new, for this many sets. */
  key: '',
  sets: 0,
  seeds: [] as number[],
}));

vi.mock('./email-set.js', async (importOriginal) => {
  const { EmailSet } = await importOriginal<typeof import('./email-set.js')>();
  class CollidingEmailSet extends EmailSet {
    private readonly colliding: boolean;
    constructor(seed: number) {
      super(seed);
      collisions.seeds.push(seed);
      this.colliding = collisions.sets > 0;
      collisions.sets--;
    }
    override add(key: string): boolean {
      return super.add(key) && !(this.colliding && key === collisions.key);
    }
  }
  return { EmailSet: CollidingEmailSet };
});

let db: TestDatabase;
let dir: string;
const limits = { maxLineChars: 1000, maxColumns: 10 };

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'mailroom-import-collision-test-'));
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  collisions.seeds = [];
});

async function pendingImport(content: string) {
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO audiences (name, is_importing, import_started_at) VALUES ('a', true, now()) RETURNING id`,
  );
  const upload = `${randomUUID()}.csv`;
  await writeFile(join(dir, upload), content);
  return { audienceId: rows[0]!.id, upload, source: 'CSV' as const };
}

const FILE = 'email,n\na@example.org,1\nb@example.org,2\nA@example.org,3\nc@example.org,4\nb@example.org,5\n';

describe('a hash collision during an import', () => {
  it('is caught, and the contacts are copied again with other hashes', async () => {
    Object.assign(collisions, { key: 'b@example.org', sets: 1 });
    const pending = await pendingImport(FILE);
    expect(await importContacts(importRepository(db.database), pending, { spool: folderSpool(dir), limits })).toMatchObject({
      status: 'imported',
      contacts: 5,
      contactsWithErrors: 2,
    });
    expect(collisions.seeds).toHaveLength(2);
    expect(collisions.seeds[0]).not.toBe(collisions.seeds[1]);
    const { rows } = await db.pool.query(
      'SELECT seq, valid_seq, error_seq, email, error_message FROM contacts WHERE audience_id = $1 ORDER BY seq',
      [pending.audienceId],
    );
    expect(rows).toEqual([
      { seq: 1, valid_seq: 1, error_seq: null, email: 'a@example.org', error_message: null },
      { seq: 2, valid_seq: 2, error_seq: null, email: 'b@example.org', error_message: null },
      { seq: 3, valid_seq: null, error_seq: 1, email: 'A@example.org', error_message: DUPLICATE_EMAIL },
      { seq: 4, valid_seq: 3, error_seq: null, email: 'c@example.org', error_message: null },
      { seq: 5, valid_seq: null, error_seq: 2, email: 'b@example.org', error_message: DUPLICATE_EMAIL },
    ]);
    expect((await db.pool.query('SELECT number_of_contacts FROM audiences WHERE id = $1', [pending.audienceId])).rows[0]).toEqual({
      number_of_contacts: 5,
    });
  });

  it('that every copy meets is left to the queue to retry, then fails the import', async () => {
    Object.assign(collisions, { key: 'c@example.org', sets: 100 });
    const pending = await pendingImport(FILE);
    await expect(importContacts(importRepository(db.database), pending, { spool: folderSpool(dir), limits })).rejects.toThrow(
      /not confirmed after 3 copies/,
    );
    expect(collisions.seeds).toHaveLength(3);
    expect(await importContacts(importRepository(db.database), pending, { spool: folderSpool(dir), limits, finalAttempt: true })).toEqual({
      status: 'failed',
      message: IMPORT_FAILED_ERROR,
    });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM contacts WHERE audience_id = $1', [pending.audienceId]);
    expect(rows[0]).toEqual({ n: 0 });
  });
});
