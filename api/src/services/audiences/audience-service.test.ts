import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import type { ImportSettings } from '../../config.js';
import type { Queues } from '../../queue/registry.js';
import { importContacts } from '../imports/importer.js';
import { DomainError } from '../errors.js';
import { createAudienceService } from './audience-service.js';
import { audienceLockArgs } from './locks.js';
import { folderSpool } from '../../spool/folder-spool.js';

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
} as unknown as Queues;

const actor = { email: 'mia@example.org' };
const activityLog = { record: async () => undefined };

const service = () =>
  createAudienceService({
    db: db.database,
    activityLog,
    queue,
    spool: folderSpool(dir),
    importSettings: settings,
    logger: pino({ level: 'silent' }),
  });

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'mailroom-audience-service-'));
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

async function audienceWithContacts(count: number): Promise<number> {
  const { id } = await service().create('with contacts', actor);
  await db.pool.query('UPDATE audiences SET is_importing = true WHERE id = $1', [id]);
  await writeFile(join(dir, `${id}.csv`), ['email', ...Array.from({ length: count }, (_, i) => `c${i}@example.org`)].join('\n'));
  const outcome = await importContacts(
    db.database,
    { audienceId: id, path: `${id}.csv`, source: 'CSV' },
    { spool: folderSpool(dir), limits: settings },
  );
  expect(outcome.status).toBe('imported');
  return id;
}

const count = async (sql: string, id: number) => (await db.pool.query<{ n: number }>(sql, [id])).rows[0]!.n;
const contactsOf = (id: number) => count('SELECT count(*)::int AS n FROM contacts WHERE audience_id = $1', id);
const rowsOf = (id: number) => count('SELECT count(*)::int AS n FROM audiences WHERE id = $1', id);

describe('delete and purge', () => {
  it('hides the audience at once, queues the purge, which removes contacts in batches then the row', async () => {
    const id = await audienceWithContacts(25_000);
    await service().remove(id, actor);
    expect(published.at(-1)).toEqual({ queue: 'audience-delete', payload: { audienceId: id } });
    await expect(service().get(id)).rejects.toEqual(new DomainError('not-found', 'Audience not found'));
    await expect(service().remove(id, actor)).rejects.toBeInstanceOf(DomainError);
    expect(await contactsOf(id)).toBe(25_000);

    expect(await service().purge(id)).toEqual({ contactsDeleted: 25_000 });
    expect(await contactsOf(id)).toBe(0);
    expect(await rowsOf(id)).toBe(0);
    // Redelivered: nothing left to do.
    expect(await service().purge(id)).toEqual({ contactsDeleted: 0 });
  });

  it('never purges a live audience', async () => {
    const id = await audienceWithContacts(3);
    expect(await service().purge(id)).toEqual({ contactsDeleted: 0 });
    expect(await contactsOf(id)).toBe(3);
  });

  it('waits for an import of the same audience to finish', async () => {
    const id = await audienceWithContacts(3);
    await db.pool.query('UPDATE audiences SET deleted_at = now() WHERE id = $1', [id]);
    const importer = await db.pool.connect();
    await importer.query('BEGIN');
    await importer.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [id]);
    let done = false;
    const purge = service()
      .purge(id)
      .then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    await importer.query('COMMIT');
    importer.release();
    await purge;
    expect(await rowsOf(id)).toBe(0);
  });
});

describe('accepting an import', () => {
  it('releases the audience and the file when the job cannot be queued', async () => {
    const { id } = await service().create('broker down', actor);
    failPublish = true;
    try {
      await expect(service().acceptImport(id, 'text', { kind: 'text', text: 'email\na@example.org\n' }, actor)).rejects.toThrow(
        'broker down',
      );
    } finally {
      failPublish = false;
    }
    expect(await service().get(id)).toMatchObject({ isImporting: false });
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(new RegExp(`^${id}-`)));

    expect(await service().acceptImport(id, 'text', { kind: 'text', text: 'email\na@example.org\n' }, actor)).toEqual(expect.any(String));
    expect(published.at(-1)).toEqual({
      queue: 'contact-import',
      payload: {
        audienceId: id,
        path: expect.stringMatching(new RegExp(`^${id}-[0-9a-f-]+\\.csv$`)),
        source: 'TEXT',
        memberEmail: actor.email,
      },
    });
  });
});

describe('sweep', () => {
  it('fails stale imports no worker holds, re-queues lost purges, removes old spool files', async () => {
    const s = service();
    const stale = (await s.create('stale', actor)).id;
    const fresh = (await s.create('fresh', actor)).id;
    const held = (await s.create('held', actor)).id;
    const lost = (await s.create('lost purge', actor)).id;
    await db.pool.query(
      `UPDATE audiences SET is_importing = true,
              import_started_at = CASE WHEN id = $2 THEN now() ELSE now() - interval '1 hour' END
        WHERE id IN ($1, $2, $3)`,
      [stale, fresh, held],
    );
    await db.pool.query(`UPDATE audiences SET deleted_at = now() - interval '1 hour' WHERE id = $1`, [lost]);
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
      const result = await s.sweep();
      expect(result.failedImports).toEqual([stale]);
      expect(result.requeuedPurges).toContain(lost);
    } finally {
      await worker.query('COMMIT');
      worker.release();
    }
    expect(await s.get(stale)).toMatchObject({ isImporting: false, importErrorMessage: 'Import was interrupted; please import again.' });
    expect(await s.get(fresh)).toMatchObject({ isImporting: true });
    expect(await s.get(held)).toMatchObject({ isImporting: true });
    expect(published).toContainEqual({ queue: 'audience-delete', payload: { audienceId: lost } });
    const files = await readdir(dir);
    expect(files).toContain('new.csv');
    expect(files).not.toContain('old.csv');
  });
});
