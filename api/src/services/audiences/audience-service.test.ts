import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import type { ImportSettings } from '../../config.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { audienceQueues } from './queues.js';
import { importContacts } from '../imports/importer.js';
import { importRepository } from '../imports/repository.js';
import { DomainError } from '../errors.js';
import { createAudienceService } from './audience-service.js';
import { audienceLockArgs } from './locks.js';
import { folderSpool } from '../../spool/folder-spool.js';

let db: TestDatabase;
let settings: ImportSettings;
let dir: string;
const published: { queue: string; payload: unknown }[] = [];

const queue = {
  publish: async (name: string, payload: unknown) => {
    published.push({ queue: name, payload });
  },
} as unknown as MessageQueue<typeof audienceQueues>;

const actor = { email: 'mia@example.org' };
const activityLog = { record: async () => undefined };

const service = () =>
  createAudienceService({
    db: db.database,
    activityLog,
    queue,
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
    importRepository(db.database),
    { audienceId: id, upload: `${id}.csv`, source: 'CSV' },
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

describe('sweep', () => {
  it('re-queues lost purges', async () => {
    const s = service();
    const lost = (await s.create('lost purge', actor)).id;
    const recent = (await s.create('recent delete', actor)).id;
    await db.pool.query(`UPDATE audiences SET deleted_at = now() - interval '1 hour' WHERE id = $1`, [lost]);
    await db.pool.query(`UPDATE audiences SET deleted_at = now() WHERE id = $1`, [recent]);
    const { requeuedPurges } = await s.sweep();
    expect(requeuedPurges).toContain(lost);
    expect(requeuedPurges).not.toContain(recent);
    expect(published).toContainEqual({ queue: 'audience-delete', payload: { audienceId: lost } });
  });
});
