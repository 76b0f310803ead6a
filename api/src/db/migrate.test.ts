import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, createTestDatabase } from '../../test/support/db.js';
import { MIGRATIONS_DIR, migrate, SchemaNotCurrentError, waitForSchema } from './migrate.js';
import { defineModels } from './models/index.js';

describe('migrate', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("waits for the migration step, refuses naming what is pending, and takes a newer schema (production's start)", async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const { readdir } = await import('node:fs/promises');
    const shipped = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();

    // Nothing applied: refused once the wait is over, with every shipped migration named.
    const refused = await waitForSchema({ databaseUrl: database.url, timeoutMs: 200, intervalMs: 20 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SchemaNotCurrentError);
    expect((refused as SchemaNotCurrentError).pending).toEqual(shipped);
    expect((refused as Error).message).toMatch(/migration\(s\) pending \(0001_initial\.sql, .*\)\. Run the migration step first/);

    // The step runs while a process waits: the wait ends once it is done, and not before.
    let waited = false;
    const waiting = waitForSchema({ databaseUrl: database.url, timeoutMs: 60_000, intervalMs: 20 }).then(() => (waited = true));
    await new Promise((done) => setTimeout(done, 100));
    expect(waited).toBe(false);
    await migrate({ databaseUrl: database.url });
    await waiting;

    // A migration of a later version (a rollout under way) does not stop this version's processes.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query("INSERT INTO schema_migrations (name) VALUES ('9999_from_a_later_version.sql')");
      await waitForSchema({ databaseUrl: database.url, timeoutMs: 0 });
      // One migration missing (a database restored from before it) is named alone.
      await client.query('DELETE FROM schema_migrations WHERE name = $1', [shipped.at(-1)]);
    } finally {
      await client.end();
    }
    await expect(waitForSchema({ databaseUrl: database.url, timeoutMs: 0 })).rejects.toMatchObject({ pending: [shipped.at(-1)] });
  });

  it('runs safely from two processes at once, then again as a no-op', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);

    const [first, second] = await Promise.all([migrate({ databaseUrl: database.url }), migrate({ databaseUrl: database.url })]);
    // One run applied everything under the lock; the other then found nothing pending.
    expect(Math.min(first.length, second.length)).toBe(0);
    const applied = first.length > 0 ? first : second;
    expect(applied[0]).toBe('0001_initial.sql');
    expect(applied).toEqual([...applied].sort());

    expect(await migrate({ databaseUrl: database.url })).toEqual([]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const recorded = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(recorded.rows.map((r) => r.name)).toEqual(applied);
      const tables = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining([
          'audiences',
          'campaign_jobs',
          'campaign_links',
          'campaigns',
          'contacts',
          'schema_migrations',
          'sns_messages',
          'suppressions',
          'templates',
          'tracking_events',
        ]),
      );
    } finally {
      await client.end();
    }
  });

  it("takes the opens and clicks recorded before people and machines were told apart as people's (migration 0010)", async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const { cp, mkdtemp, readdir, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { MIGRATIONS_DIR } = await import('./migrate.js');
    const before = await mkdtemp(join(tmpdir(), 'mailroom-migrations-'));
    cleanups.push(() => rm(before, { recursive: true, force: true }));
    for (const name of await readdir(MIGRATIONS_DIR)) {
      if (name < '0010') await cp(join(MIGRATIONS_DIR, name), join(before, name));
    }
    await migrate({ databaseUrl: database.url, directory: before });

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const audience = (await client.query<{ id: string }>("INSERT INTO audiences (name) VALUES ('Earlier') RETURNING id")).rows[0]!.id;
      const campaign = (
        await client.query<{ id: string }>("INSERT INTO campaigns (name, audience_id) VALUES ('Earlier news', $1) RETURNING id", [audience])
      ).rows[0]!.id;
      // Read and clicked, read only, and never read.
      await client.query(
        `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, opened_at, clicked_at) VALUES
           ($1, 1, 'a@example.org', 'SENT_SUCCESS', now(), now()),
           ($1, 2, 'b@example.org', 'SENT_SUCCESS', now(), NULL),
           ($1, 3, 'c@example.org', 'SENT_SUCCESS', NULL, NULL)`,
        [campaign],
      );

      await migrate({ databaseUrl: database.url });

      const jobs = await client.query(
        `SELECT email, human_opened_at = opened_at AS human_open, human_clicked_at IS NOT DISTINCT FROM clicked_at AS human_click,
                human_opened_at IS NULL AS never_opened
           FROM campaign_jobs ORDER BY email`,
      );
      expect(jobs.rows).toEqual([
        { email: 'a@example.org', human_open: true, human_click: true, never_opened: false },
        { email: 'b@example.org', human_open: true, human_click: true, never_opened: false },
        { email: 'c@example.org', human_open: null, human_click: true, never_opened: true },
      ]);
      // The counts the report sums agree with the jobs, people's opens and clicks included.
      const counts = await client.query(
        `SELECT opened, clicked, human_opened, human_clicked, jobs::int FROM campaign_job_counts
          WHERE campaign_id = $1 ORDER BY opened DESC, clicked DESC`,
        [campaign],
      );
      expect(counts.rows).toEqual([
        { opened: true, clicked: true, human_opened: true, human_clicked: true, jobs: 1 },
        { opened: true, clicked: false, human_opened: true, human_clicked: false, jobs: 1 },
        { opened: false, clicked: false, human_opened: false, human_clicked: false, jobs: 1 },
      ]);
    } finally {
      await client.end();
    }
  });

  it('keeps every suppressed address suppressed under the one fold, address_key (migration 0017)', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const { cp, mkdtemp, readdir, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { MIGRATIONS_DIR } = await import('./migrate.js');
    const before = await mkdtemp(join(tmpdir(), 'mailroom-migrations-'));
    cleanups.push(() => rm(before, { recursive: true, force: true }));
    for (const name of await readdir(MIGRATIONS_DIR)) {
      if (name < '0017') await cp(join(MIGRATIONS_DIR, name), join(before, name));
    }
    await migrate({ databaseUrl: database.url, directory: before });

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const audience = (await client.query<{ id: string }>("INSERT INTO audiences (name) VALUES ('Earlier') RETURNING id")).rows[0]!.id;
      const people = ['ΟΔΟΣ@uni.example', 'İX@uni.example', 'ÄBC@uni.example', 'Σοφία.Müller@uni.example', 'ok@uni.example'];
      await client.query(
        `INSERT INTO contacts (audience_id, seq, valid_seq, email) SELECT $1, n, n, e FROM unnest($2::text[]) WITH ORDINALITY AS a(e, n)`,
        [audience, people],
      );
      // Keys as the earlier paths stored them: the unsubscribe link with this database's lower(), a
      // member with JavaScript's, and, as a database of the "C" locale folds, a key left upper case
      // beside its lower-case twin.
      await client.query(`INSERT INTO suppressions (email_lower, reason) VALUES (lower('ΟΔΟΣ@uni.example'), 'UNSUBSCRIBE')`);
      await client.query(`INSERT INTO suppressions (email_lower, reason) VALUES (lower('İX@uni.example'), 'HARD_BOUNCE')`);
      await client.query(`INSERT INTO suppressions (email_lower, reason, added_by_email) VALUES ($1, 'MEMBER', 'mia@example.org')`, [
        'Σοφία.Müller@uni.example'.toLowerCase(),
      ]);
      await client.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('Äbc@uni.example', 'COMPLAINT')`);
      await client.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('äbc@uni.example', 'UNSUBSCRIBE')`);
      await client.query(
        `INSERT INTO soft_bounce_streaks (email_lower, bounces, last_message_id) VALUES ('Äbc@uni.example', 2, 'm'), ('ok@uni.example', 1, 'n')`,
      );

      await migrate({ databaseUrl: database.url });

      const suppressed = await client.query<{ email: string; reason: string | null }>(
        `SELECT c.email, s.reason FROM contacts c LEFT JOIN suppressions s ON s.email_lower = address_key(c.email) ORDER BY c.seq`,
      );
      expect(suppressed.rows).toEqual([
        { email: 'ΟΔΟΣ@uni.example', reason: 'UNSUBSCRIBE' },
        { email: 'İX@uni.example', reason: 'HARD_BOUNCE' },
        // The first suppression of the two that meet on one key keeps its reason.
        { email: 'ÄBC@uni.example', reason: 'COMPLAINT' },
        { email: 'Σοφία.Müller@uni.example', reason: 'MEMBER' },
        { email: 'ok@uni.example', reason: null },
      ]);
      // Every key is its own fold, and the kept totals agree with the rows.
      const keys = await client.query('SELECT email_lower FROM suppressions WHERE email_lower <> address_key(email_lower)');
      expect(keys.rows).toEqual([]);
      const counts = await client.query(
        `SELECT k.reason, k.suppressions::int AS kept, (SELECT count(*) FROM suppressions s WHERE s.reason = k.reason)::int AS rows
           FROM suppression_counts k WHERE k.suppressions <> (SELECT count(*) FROM suppressions s WHERE s.reason = k.reason)`,
      );
      expect(counts.rows).toEqual([]);
      const streaks = await client.query('SELECT email_lower FROM soft_bounce_streaks');
      expect(streaks.rows).toEqual([{ email_lower: 'ok@uni.example' }]);
    } finally {
      await client.end();
    }
  });

  it('rolls back a failing migration entirely and records nothing for it', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const directory = await mkdtemp(join(tmpdir(), 'mailroom-migrations-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    await writeFile(join(directory, '0001_good.sql'), 'CREATE TABLE good (id int);');
    await writeFile(join(directory, '0002_bad.sql'), 'CREATE TABLE half (id int); SELECT no_such_function();');

    await expect(migrate({ databaseUrl: database.url, directory })).rejects.toThrow();

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
      expect(applied.rows.map((r) => r.name)).toEqual(['0001_good.sql']);
      const half = await client.query("SELECT to_regclass('public.half') AS t");
      expect(half.rows[0].t).toBeNull();
    } finally {
      await client.end();
    }
  });

  it('the models map their tables (ids and counts as numbers, timestamps set)', async () => {
    const db = await createTestDatabase();
    cleanups.push(db.drop);
    const m = defineModels(db.sequelize);

    const audience = await m.Audience.create({ name: 'Friends', headers: ['firstName'] });
    expect(typeof audience.id).toBe('number');
    expect(audience.createdAt).toBeInstanceOf(Date);
    const contact = await m.Contact.create({ audienceId: audience.id, email: 'a@example.org', data: { firstName: 'A' } });
    const template = await m.Template.create({ name: 'My template', design: { body: {} } });
    const campaign = await m.Campaign.create({ name: 'My Campaign', audienceId: audience.id, templateId: template.id });
    expect(campaign.status).toBe('DRAFT');
    const job = await m.CampaignJob.create({ campaignId: campaign.id, contactId: contact.id, email: contact.email });
    const suppression = await m.Suppression.create({ emailLower: 'b@example.org', reason: 'UNSUBSCRIBE' });
    expect(suppression.createdAt).toBeInstanceOf(Date);

    const found = await m.CampaignJob.findByPk(job.id, { include: [{ model: m.Campaign, as: 'campaign' }] });
    expect(found?.status).toBe('QUEUED');
    expect(typeof found?.campaignId).toBe('number');
    const [{ count }] = (await db.pool.query<{ count: number }>('SELECT COUNT(*) AS count FROM contacts')).rows as [{ count: number }];
    expect(count).toBe(1);

    // A second Sequelize instance gets its own model classes; the first keeps working.
    const other = await createTestDatabase();
    cleanups.push(other.drop);
    const m2 = defineModels(other.sequelize);
    expect(await m2.Audience.count()).toBe(0);
    expect(await m.Audience.count()).toBe(1);
  });
});
