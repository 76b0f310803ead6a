import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import type { ImportSettings } from '../../config.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { importQueues } from './queues.js';
import { folderSpool } from '../../spool/folder-spool.js';
import { audienceLockArgs } from '../audiences/locks.js';
import { DomainError } from '../errors.js';
import { ALREADY_HAS_SOURCE, createImportService, IMPORT_RUNNING, NO_CSV_FILE, ONLY_CSV } from './import-service.js';
import { contactImportMessage } from './queues.js';

let db: TestDatabase;
let settings: ImportSettings;
let dir: string;
const published: { queue: string; payload: unknown }[] = [];
let failPublish = false;

const queue = {
  publish: async (name: string, payload: unknown) => {
    if (failPublish) throw new Error('broker down');
    published.push({ queue: name, payload });
  },
} as unknown as MessageQueue<typeof importQueues>;

const actor = { email: 'mia@example.org' };

const service = () =>
  createImportService({ db: db.database, queue, spool: folderSpool(dir), importSettings: settings, logger: pino({ level: 'silent' }) });

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'mailroom-import-service-'));
  settings = {
    maxBytes: 1_000_000,
    spool: { kind: 'folder', dir },
    maxLineChars: 1000,
    maxColumns: 10,
    staleAfterMs: 60_000,
  };
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

async function newAudience(name: string): Promise<number> {
  const { rows } = await db.pool.query<{ id: number }>('INSERT INTO audiences (name) VALUES ($1) RETURNING id', [name]);
  return rows[0]!.id;
}

const audienceRow = async (id: number) =>
  (await db.pool.query('SELECT is_importing, import_error_message, source FROM audiences WHERE id = $1', [id])).rows[0];

const uploadsOf = async (id: number) => (await readdir(dir)).filter((name) => name.startsWith(`${id}-`));

describe('accepting an import', () => {
  it('releases the audience and the upload when the message cannot be queued', async () => {
    const id = await newAudience('broker down');
    failPublish = true;
    try {
      await expect(service().accept(id, 'text', { kind: 'text', text: 'email\na@example.org\n' }, actor)).rejects.toThrow('broker down');
    } finally {
      failPublish = false;
    }
    expect(await audienceRow(id)).toMatchObject({ is_importing: false });
    expect(await uploadsOf(id)).toEqual([]);

    expect(await service().accept(id, 'text', { kind: 'text', text: 'email\na@example.org\n' }, actor)).toEqual(expect.any(String));
    const [upload] = await uploadsOf(id);
    expect(upload).toMatch(new RegExp(`^${id}-[0-9a-f-]+\\.csv$`));
    // `path` too, for the workers of the previous release (queues.ts).
    expect(published.at(-1)).toEqual({
      queue: 'contact-import',
      payload: {
        audienceId: id,
        upload,
        path: upload,
        source: 'TEXT',
        memberEmail: actor.email,
        plan: { emailColumn: 'email', columns: [] },
      },
    });
    expect(await audienceRow(id)).toMatchObject({ is_importing: true });
    await expect(service().accept(id, 'text', { kind: 'text', text: 'email\nb@example.org\n' }, actor)).rejects.toEqual(
      new DomainError('conflict', IMPORT_RUNNING),
    );
  });

  it('stores a file upload, checks its name, and removes a refused one', async () => {
    const id = await newAudience('file');
    const s = service();
    const refused = await s.receiveUpload(id, Readable.from([Buffer.from('name\nAnn\n')]));
    expect(refused).toEqual({ name: undefined, size: 9, problem: 'The file has no email column.' });
    await expect(s.accept(id, 'csv', { kind: 'file', fileName: 'list.csv', upload: refused }, actor)).rejects.toEqual(
      new DomainError('invalid', 'The file has no email column.'),
    );

    const upload = await s.receiveUpload(id, Readable.from([Buffer.from('email\na@example.org\n')]));
    expect(upload).toEqual({ name: expect.stringMatching(new RegExp(`^${id}-`)), size: 20, problem: undefined, header: ['email'] });
    expect(await uploadsOf(id)).toEqual([upload.name]);
    await expect(s.accept(id, 'csv', { kind: 'file', fileName: 'list.txt', upload }, actor)).rejects.toEqual(
      new DomainError('invalid', ONLY_CSV),
    );
    expect(await uploadsOf(id)).toEqual([]);
    await expect(s.accept(id, 'csv', { kind: 'text', text: 'email\na@example.org\n' }, actor)).rejects.toEqual(
      new DomainError('invalid', NO_CSV_FILE),
    );
  });

  it('refuses an audience that already has contacts', async () => {
    const id = await newAudience('has source');
    await db.pool.query(`UPDATE audiences SET source = 'CSV' WHERE id = $1`, [id]);
    await expect(service().accept(id, 'text', { kind: 'text', text: 'email\na@example.org\n' }, actor)).rejects.toEqual(
      new DomainError('conflict', ALREADY_HAS_SOURCE),
    );
    expect(await uploadsOf(id)).toEqual([]);
  });
});

describe('the contact-import message', () => {
  const message = { audienceId: 7, upload: '7-a.csv', source: 'CSV', memberEmail: 'mia@example.org' };

  it('names its upload `upload`, and reads a message of the previous release, which named it `path`', () => {
    expect(contactImportMessage.parse(message)).toEqual(message);
    const { upload, ...rest } = message;
    expect(contactImportMessage.parse({ ...rest, path: upload })).toEqual(message);
    expect(contactImportMessage.parse({ ...message, path: 'other.csv' })).toEqual(message);
  });

  it('never names a path', () => {
    expect(contactImportMessage.safeParse({ ...message, upload: '../etc/passwd' }).success).toBe(false);
    const { upload: _upload, ...rest } = message;
    expect(contactImportMessage.safeParse({ ...rest, path: '/etc/passwd' }).success).toBe(false);
    expect(contactImportMessage.safeParse(rest).success).toBe(false);
  });
});

describe('running an import', () => {
  it('imports the message upload, and removes it', async () => {
    const id = await newAudience('run');
    await service().accept(id, 'text', { kind: 'text', text: 'email\na@example.org\nA@example.org\n' }, actor);
    const [upload] = await uploadsOf(id);
    expect(await service().run({ audienceId: id, upload: upload!, source: 'TEXT', memberEmail: actor.email })).toEqual({
      status: 'imported',
      contacts: 2,
      contactsWithErrors: 1,
      headers: [],
    });
    expect(await audienceRow(id)).toEqual({ is_importing: false, import_error_message: null, source: 'TEXT' });
    expect(await uploadsOf(id)).toEqual([]);
  });
});

describe('sweep', () => {
  it('fails stale imports no worker holds and removes old uploads', async () => {
    const s = service();
    const stale = await newAudience('stale');
    const fresh = await newAudience('fresh');
    const held = await newAudience('held');
    await db.pool.query(
      `UPDATE audiences SET is_importing = true,
              import_started_at = CASE WHEN id = $2 THEN now() ELSE now() - interval '1 hour' END
        WHERE id IN ($1, $2, $3)`,
      [stale, fresh, held],
    );
    const oldFile = join(dir, 'old.csv');
    const newFile = join(dir, 'new.csv');
    await writeFile(oldFile, 'email\n');
    await writeFile(newFile, 'email\n');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(oldFile, anHourAgo, anHourAgo);

    const worker = await db.pool.connect();
    await worker.query('BEGIN');
    await worker.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [held]);
    try {
      expect(await s.sweep()).toEqual({ failedImports: [stale] });
    } finally {
      await worker.query('COMMIT');
      worker.release();
    }
    expect(await audienceRow(stale)).toMatchObject({
      is_importing: false,
      import_error_message: 'Import was interrupted; please import again.',
    });
    expect(await audienceRow(fresh)).toMatchObject({ is_importing: true });
    expect(await audienceRow(held)).toMatchObject({ is_importing: true });
    const files = await readdir(dir);
    expect(files).toContain('new.csv');
    expect(files).not.toContain('old.csv');
  });
});
