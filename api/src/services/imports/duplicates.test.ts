/**
 * Duplicates within an import are exact whatever the segment they fall in and whatever the filter
 * answers (duplicates.ts): small segments put duplicates across segment boundaries, and a tiny
 * filter answers "maybe" for nearly every address, as a full one would for its false positives.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { folderSpool } from '../../spool/folder-spool.js';
import { DUPLICATE_EMAIL, INVALID_EMAIL, isValidEmail } from '../contacts/email.js';
import { importContacts, type ImporterOptions } from './importer.js';
import { importRepository } from './repository.js';

let db: TestDatabase;
let dir: string;
const limits = { maxLineChars: 1000, maxColumns: 10 };

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'mailroom-import-duplicates-test-'));
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

/** Imports `emails` (one column) with `tuning`; answers each contact's [email, valid_seq, error_seq, error] in file order. */
async function imported(emails: string[], tuning: ImporterOptions['tuning']) {
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO audiences (name, is_importing, import_started_at) VALUES ('a', true, now()) RETURNING id`,
  );
  const audienceId = rows[0]!.id;
  const upload = `${randomUUID()}.csv`;
  await writeFile(join(dir, upload), ['email', ...emails].join('\n'));
  const outcome = await importContacts(
    importRepository(db.database),
    { audienceId, upload, source: 'CSV' },
    { spool: folderSpool(dir), limits, tuning },
  );
  expect(outcome).toMatchObject({ status: 'imported', contacts: emails.length });
  const { rows: contacts } = await db.pool.query<{
    email: string;
    valid_seq: number | null;
    error_seq: number | null;
    error_message: string | null;
  }>('SELECT email, valid_seq, error_seq, error_message FROM contacts WHERE audience_id = $1 ORDER BY seq', [audienceId]);
  return contacts.map((c) => [c.email, c.valid_seq, c.error_seq, c.error_message]);
}

/** What the product promises, computed the plain way: a valid address seen before (lower-cased) is a duplicate. */
function expected(emails: string[]) {
  const seen = new Set<string>();
  let valid = 0;
  let errors = 0;
  return emails.map((email) => {
    let error: string | null = isValidEmail(email) ? null : INVALID_EMAIL;
    if (error === null) {
      const address = email.toLowerCase();
      if (seen.has(address)) error = DUPLICATE_EMAIL;
      seen.add(address);
    }
    return error === null ? [email, ++valid, null, null] : [email, null, ++errors, error];
  });
}

const FILE = [
  'ann@example.org',
  'bob@example.org',
  'ANN@example.org',
  'cid@example',
  'cid@example',
  'zoe@exämple.de',
  'bob@example.org',
  'dee@example.org',
  'ZOE@EXÄMPLE.DE',
  'Dee@Example.org',
  'eve@example.org',
  'ann@example.org',
];

describe('duplicates within an import', () => {
  it('are found in the same segment and in any segment before, whatever the case of their letters', async () => {
    for (const segmentRows of [1, 2, 3, 5, 50_000]) {
      expect(await imported(FILE, { segmentRows }), `segments of ${segmentRows}`).toEqual(expected(FILE));
    }
    expect(expected(FILE).filter((row) => row[3] === DUPLICATE_EMAIL)).toHaveLength(5);
  });

  it('are exact when the filter cannot rule out any address (its false positives)', async () => {
    for (const segmentRows of [1, 4, 50_000]) {
      expect(await imported(FILE, { segmentRows, filterBits: 512 }), `segments of ${segmentRows}`).toEqual(expected(FILE));
    }
  });

  it('are exact across a larger file, for any filter', async () => {
    // 3,000 rows drawn from 1,000 addresses in mixed case: two in three are duplicates, most in earlier segments.
    const emails = Array.from({ length: 3000 }, (_, i) => {
      const n = (i * 7919) % 1000;
      return i % 3 === 0 ? `User${n}@Example.org` : `user${n}@example.org`;
    });
    const want = expected(emails);
    expect(await imported(emails, { segmentRows: 250 })).toEqual(want);
    expect(await imported(emails, { segmentRows: 250, filterBits: 512 })).toEqual(want);
  });
});

describe('the lookup of addresses already copied', () => {
  it("descends the address index once an address in the import's transaction, while the planner does not know the new contacts yet", async () => {
    await db.pool.query('ANALYZE contacts');
    const { rows } = await db.pool.query<{ id: number }>(`INSERT INTO audiences (name) VALUES ('new') RETURNING id`);
    const id = rows[0]!.id;
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      // 20,000 contacts copied in the transaction, as an import has: the statistics know none of them.
      await client.query(
        `INSERT INTO contacts (audience_id, seq, valid_seq, error_seq, email, error_message)
         SELECT $1, n, CASE WHEN n % 10 <> 0 THEN n - n / 10 END, CASE WHEN n % 10 = 0 THEN n / 10 END,
                'u' || n || '@example.org', CASE WHEN n % 10 = 0 THEN $2 END
           FROM generate_series(1, 20000) n`,
        [id, INVALID_EMAIL],
      );
      const plans: string[] = [];
      const explaining = {
        query: async (text: string, params?: unknown[]) => {
          if (!text.trimStart().startsWith('SELECT stored.email')) return client.query(text, params);
          const result = await client.query(`EXPLAIN ${text}`, params);
          plans.push(result.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n'));
          return client.query(text, params);
        },
      };
      const repo = importRepository(db.database);
      // The import's transaction as startImport leaves it (the audience is not importing: nothing else is done).
      expect(await repo.startImport(explaining as never, id)).toEqual({ skip: 'no import pending' });
      // Found whatever the case (address_key), valid contacts only (u10 is invalid here).
      expect(await repo.storedAddresses(explaining as never, id, ['U5@EXAMPLE.org', 'u10@example.org', 'nobody@example.org'])).toEqual([
        'u5@example.org',
      ]);
      expect(plans[0]).toMatch(/Index Scan using contacts_audience_email_key/);
      expect(plans[0]).not.toMatch(/Seq Scan on contacts|Bitmap|trgm|Sort/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
