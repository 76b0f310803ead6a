import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { ENCODING_ERROR, EMPTY_FILE_ERROR } from './csv.js';
import { DUPLICATE_EMAIL, INVALID_EMAIL, MISSING_EMAIL } from '../contacts/email.js';
import { FILE_GONE_ERROR, IMPORT_FAILED_ERROR, importContacts, NO_CONTACTS_ERROR } from './importer.js';
import type { ImportSource } from './queues.js';
import { folderSpool } from '../../spool/folder-spool.js';
import { importRepository } from './repository.js';

let db: TestDatabase;
let dir: string;
const limits = { maxLineChars: 1000, maxColumns: 10 };

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'mailroom-import-test-'));
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

/** An audience waiting for its import (as the API leaves it), and its upload in the spool. */
async function pendingImport(content: string | Buffer) {
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO audiences (name, is_importing, import_started_at) VALUES ('a', true, now()) RETURNING id`,
  );
  const upload = `${randomUUID()}.csv`;
  await writeFile(join(dir, upload), content);
  return { audienceId: rows[0]!.id, upload };
}

async function run(content: string | Buffer, source: ImportSource = 'CSV', finalAttempt = false) {
  const pending = await pendingImport(content);
  const outcome = await importContacts(
    importRepository(db.database),
    { ...pending, source },
    { spool: folderSpool(dir), limits, finalAttempt },
  );
  return { ...pending, outcome };
}

async function audience(id: number) {
  const { rows } = await db.pool.query('SELECT * FROM audiences WHERE id = $1', [id]);
  return rows[0];
}

async function contacts(audienceId: number) {
  const { rows } = await db.pool.query(
    'SELECT seq, valid_seq, error_seq, email, error_message, data FROM contacts WHERE audience_id = $1 ORDER BY seq',
    [audienceId],
  );
  return rows;
}

describe('importContacts', () => {
  it('imports every row, with errors kept, headers and exact counts', async () => {
    const content =
      '\uFEFFFirst Name; E-Mail ;City\r\n' +
      'Ann;ann@example.org;"Paris; France"\r\n' +
      'Bob;;Lyon\r\n' +
      '\r\n' +
      'Cid;not-an-address;Nice\r\n' +
      'Ann 2;ANN@example.org;"Multi\r\nline"\r\n' +
      'Dee;dee@example.org\r\n';
    const { audienceId, upload, outcome } = await run(content, 'TEXT');
    expect(outcome).toEqual({ status: 'imported', contacts: 5, contactsWithErrors: 3, headers: ['First Name', 'City'] });
    expect(existsSync(join(dir, upload))).toBe(false);

    const a = await audience(audienceId);
    expect(a).toMatchObject({
      headers: ['First Name', 'City'],
      source: 'TEXT',
      number_of_contacts: 5,
      number_of_contacts_with_errors: 3,
      is_importing: false,
      import_error_message: null,
      import_started_at: null,
    });
    expect(await contacts(audienceId)).toEqual([
      {
        seq: 1,
        valid_seq: 1,
        error_seq: null,
        email: 'ann@example.org',
        error_message: null,
        data: { 'First Name': 'Ann', City: 'Paris; France' },
      },
      { seq: 2, valid_seq: null, error_seq: 1, email: '', error_message: MISSING_EMAIL, data: { 'First Name': 'Bob', City: 'Lyon' } },
      {
        seq: 3,
        valid_seq: null,
        error_seq: 2,
        email: 'not-an-address',
        error_message: INVALID_EMAIL,
        data: { 'First Name': 'Cid', City: 'Nice' },
      },
      {
        seq: 4,
        valid_seq: null,
        error_seq: 3,
        email: 'ANN@example.org',
        error_message: DUPLICATE_EMAIL,
        data: { 'First Name': 'Ann 2', City: 'Multi\r\nline' },
      },
      { seq: 5, valid_seq: 2, error_seq: null, email: 'dee@example.org', error_message: null, data: { 'First Name': 'Dee' } },
    ]);
  });

  it('imports a larger file across many chunks', async () => {
    const lines = ['email,n'];
    for (let i = 0; i < 30_000; i++) lines.push(`u${i}@example.org,${i}`);
    lines.push('u7@EXAMPLE.org,dup');
    const { audienceId, outcome } = await run(lines.join('\n'));
    expect(outcome).toMatchObject({ status: 'imported', contacts: 30_001, contactsWithErrors: 1 });
    const { rows } = await db.pool.query(
      'SELECT max(seq) AS seq, max(valid_seq) AS valid, max(error_seq) AS errors FROM contacts WHERE audience_id = $1',
      [audienceId],
    );
    expect(rows[0]).toEqual({ seq: 30_001, valid: 30_000, errors: 1 });
  });

  it('flags duplicates whatever the case of their letters, ASCII or not', async () => {
    const { audienceId, outcome } = await run(
      // Letters beyond ASCII in the domain only: before the @ they make the address invalid (SES refuses them).
      'email\nzoe@exämple.de\nZOE@EXÄMPLE.DE\nann@example.org\nAnn@Example.ORG\nzoe@example.de\nZoe@exämple.de\n',
    );
    expect(outcome).toMatchObject({ status: 'imported', contacts: 6, contactsWithErrors: 3 });
    expect((await contacts(audienceId)).map((c) => [c.email, c.valid_seq, c.error_seq, c.error_message])).toEqual([
      ['zoe@exämple.de', 1, null, null],
      ['ZOE@EXÄMPLE.DE', null, 1, DUPLICATE_EMAIL],
      ['ann@example.org', 2, null, null],
      ['Ann@Example.ORG', null, 2, DUPLICATE_EMAIL],
      ['zoe@example.de', 3, null, null],
      ['Zoe@exämple.de', null, 3, DUPLICATE_EMAIL],
    ]);
  });

  it('keeps quotes inside unquoted fields as characters', async () => {
    const { audienceId, outcome } = await run('email;Size;Link\r\na@example.org;5" floppy;=HYPERLINK("http://x";"y")\r\n', 'TEXT');
    expect(outcome).toMatchObject({ status: 'imported', contacts: 1, contactsWithErrors: 0, headers: ['Size', 'Link'] });
    // As a spreadsheet shows the line: the formula is cut at the delimiter inside it.
    expect((await contacts(audienceId))[0].data).toEqual({ Size: '5" floppy', Link: '=HYPERLINK("http://x"' });
  });

  it.each([
    ['a file that is not UTF-8', Buffer.from('email\nJos\xe9@example.org\n', 'latin1'), ENCODING_ERROR],
    ['an unclosed quote', 'email,name\na@example.org,"Ann\nb@example.org,Bob\n', 'Row 2 has a quote that is never closed.'],
    ['a line over the limit', `email,name\na@example.org,${'x'.repeat(2000)}\n`, 'Line 2 is longer than 1000 characters.'],
    ['too many columns', `email,name\na@example.org${',x'.repeat(12)}\n`, 'Row 2 has more than 10 columns.'],
    ['an empty file', '', EMPTY_FILE_ERROR],
    ['blank lines only', '\n\n \n', EMPTY_FILE_ERROR],
    ['a header only', 'email,name\n', NO_CONTACTS_ERROR],
    ['no email column', 'name,city\nAnn,Paris\n', 'The file has no email column.'],
  ])('fails cleanly on %s, leaving the audience as it was', async (_case, content, message) => {
    const { audienceId, upload, outcome } = await run(content);
    expect(outcome).toEqual({ status: 'failed', message });
    expect(await audience(audienceId)).toMatchObject({
      is_importing: false,
      import_error_message: message,
      source: null,
      headers: [],
      number_of_contacts: 0,
    });
    expect(await contacts(audienceId)).toEqual([]);
    expect(existsSync(join(dir, upload))).toBe(false);
  });

  it('rolls back rows already copied when the file turns out bad late', async () => {
    const lines = ['email,name'];
    for (let i = 0; i < 20_000; i++) lines.push(`u${i}@example.org,x`);
    lines.push('z@example.org,"never closed');
    const { audienceId, outcome } = await run(lines.join('\n'));
    expect(outcome).toEqual({ status: 'failed', message: 'Row 20002 has a quote that is never closed.' });
    expect(await contacts(audienceId)).toEqual([]);
  });

  it('fails cleanly when the upload is gone', async () => {
    const { audienceId } = await pendingImport('email\na@example.org\n');
    const outcome = await importContacts(
      importRepository(db.database),
      { audienceId, upload: 'missing.csv', source: 'CSV' },
      { spool: folderSpool(dir), limits },
    );
    expect(outcome).toEqual({ status: 'failed', message: FILE_GONE_ERROR });
    expect(await audience(audienceId)).toMatchObject({ is_importing: false, import_error_message: FILE_GONE_ERROR });
  });

  it('does nothing for an audience that is not importing, or deleted (a duplicate message)', async () => {
    const first = await run('email\na@example.org\n');
    expect(first.outcome.status).toBe('imported');
    const again = await pendingImport('email\nb@example.org\n');
    await db.pool.query('UPDATE audiences SET is_importing = false WHERE id = $1', [again.audienceId]);
    expect(await importContacts(importRepository(db.database), { ...again, source: 'CSV' }, { spool: folderSpool(dir), limits })).toEqual({
      status: 'skipped',
      reason: 'no import pending',
    });
    const deleted = await pendingImport('email\nc@example.org\n');
    await db.pool.query('UPDATE audiences SET deleted_at = now() WHERE id = $1', [deleted.audienceId]);
    expect(
      await importContacts(importRepository(db.database), { ...deleted, source: 'CSV' }, { spool: folderSpool(dir), limits }),
    ).toMatchObject({
      status: 'skipped',
    });
    expect(await contacts(deleted.audienceId)).toEqual([]);
  });

  it('leaves a database failure to the queue to retry, and fails the import on the last attempt', async () => {
    const pending = await pendingImport('email\na@example.org\n');
    // A data layer whose transactions fail, as when the database goes away mid-import.
    const broken = { transaction: () => Promise.reject(new Error('connection refused')), query: db.database.query.bind(db.database) };
    const options = { spool: folderSpool(dir), limits };
    await expect(importContacts(importRepository(broken as never), { ...pending, source: 'CSV' }, options)).rejects.toThrow(
      'connection refused',
    );
    expect(await audience(pending.audienceId)).toMatchObject({ is_importing: true });
    expect(existsSync(join(dir, pending.upload))).toBe(true);

    expect(
      await importContacts(importRepository(broken as never), { ...pending, source: 'CSV' }, { ...options, finalAttempt: true }),
    ).toEqual({
      status: 'failed',
      message: IMPORT_FAILED_ERROR,
    });
    expect(await audience(pending.audienceId)).toMatchObject({ is_importing: false, import_error_message: IMPORT_FAILED_ERROR });
  });

  it('runs again from the start after an interrupted attempt (redelivery)', async () => {
    const pending = await pendingImport('email\na@example.org\nb@example.org\n');
    // The first attempt dies inside its transaction: nothing of it is left.
    const client = await db.pool.connect();
    await client.query('BEGIN');
    await client.query(`INSERT INTO contacts (audience_id, seq, valid_seq, email) VALUES ($1, 1, 1, 'a@example.org')`, [
      pending.audienceId,
    ]);
    client.release(true);
    const outcome = await importContacts(importRepository(db.database), { ...pending, source: 'CSV' }, { spool: folderSpool(dir), limits });
    expect(outcome).toMatchObject({ status: 'imported', contacts: 2, contactsWithErrors: 0 });
    expect((await contacts(pending.audienceId)).map((c) => c.email)).toEqual(['a@example.org', 'b@example.org']);
  });

  it('refuses contacts of an audience that does not exist (the statement-level foreign key)', async () => {
    await expect(db.pool.query(`INSERT INTO contacts (audience_id, email) VALUES (987654, 'x@example.org')`)).rejects.toThrow(
      /existing audience/,
    );
    const { audienceId } = await run('email\nkeep@example.org\n');
    await expect(db.pool.query('DELETE FROM audiences WHERE id = $1', [audienceId])).rejects.toThrow(/still has contacts/);
  });
});
