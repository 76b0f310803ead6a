/**
 * A person spread over the product, for the people tests (issue 24): contacts in several audiences
 * (one deleted), mails in two campaigns with opens and clicks by people and machines and the evidence
 * of each, an unsubscribe from one campaign, a bounce whose text quotes the address, a removed
 * suppression, a run of soft bounces, and activity entries that name the address: everything the
 * schema can hold about an address, written straight into the tables.
 */
import type pg from 'pg';
import { seedAudience } from './seed.js';

type Queryable = Pick<pg.Pool, 'query'>;

/** The person, as the first audience holds the address; the others hold it in other cases. */
export const PERSON = 'zoe.quill@example.net';
/** A field value only the person's contacts hold, to find anywhere it is left. */
export const PERSON_NAME = 'Zoë Quillfeather';

export interface SeededPerson {
  audiences: { first: number; second: number; deleted: number };
  campaigns: { first: number; second: number };
  /** The person's mails, in the order of `campaigns`. */
  jobs: number[];
}

async function campaign(db: Queryable, name: string, audienceId: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO campaigns (name, status, audience_id, subject, from_email, html, delivery_date)
     VALUES ($1, 'SENT', $2, 'News for you', 'news@example.org', '<p>Hi</p>', now() - interval '2 days') RETURNING id`,
    [name, audienceId],
  );
  return Number(rows[0]!.id);
}

/** Mails to the audience's first `n` valid contacts, as sending writes them (the triggers keep the aggregates). */
async function mails(db: Queryable, campaignId: number, audienceId: number, emails: string[], outcome: Record<string, string>) {
  const { rows } = await db.query<{ id: number; email: string }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, ses_message_id, sent_at, bounce_type, bounce_message, bounce_time)
     SELECT $1::bigint, c.id, c.email, coalesce(($4::jsonb ->> address_key(c.email)), 'SENT_SUCCESS'),
            'ses-' || $1::bigint || '-' || c.id, now() - interval '2 days',
            CASE WHEN $4::jsonb ->> address_key(c.email) = 'SENT_WAIT_ACK' THEN 'SOFT' END,
            CASE WHEN $4::jsonb ->> address_key(c.email) = 'SENT_WAIT_ACK' THEN '452 4.2.2 <' || c.email || '>: mailbox full' END,
            CASE WHEN $4::jsonb ->> address_key(c.email) = 'SENT_WAIT_ACK' THEN now() - interval '1 day' END
       FROM contacts c WHERE c.audience_id = $2 AND c.valid_seq IS NOT NULL AND address_key(c.email) = ANY(SELECT address_key(e) FROM unnest($3::text[]) e)
      ORDER BY c.valid_seq
     RETURNING id, email`,
    [campaignId, audienceId, emails, JSON.stringify(outcome)],
  );
  await db.query('UPDATE campaigns SET contact_count = $2, jobs_sent = $2 WHERE id = $1', [campaignId, rows.length]);
  return new Map(rows.map((row) => [row.email.toLowerCase(), Number(row.id)]));
}

/** A hit on a mail, recorded by the tracking recorder's own function (record_tracking_hits: counts, first hits, verdicts). */
async function hit(
  db: Queryable,
  _campaignId: number,
  jobId: number,
  _kind: 'OPEN' | 'CLICK',
  hit: { machine: string | null; ip: string; agent: string; linkId?: number; minutesAfter: number },
) {
  await db.query(
    `SELECT record_tracking_hits(ARRAY[$1::bigint], ARRAY[$2::bigint], ARRAY[$3::text],
                                 ARRAY[(SELECT sent_at FROM campaign_jobs WHERE id = $1) + $4 * interval '1 minute'],
                                 ARRAY[$5::inet], ARRAY[$6::text], 10000, 5000, 3)`,
    [jobId, hit.linkId ?? null, hit.agent, hit.minutesAfter, hit.ip, hit.machine],
  );
}

export async function seedPerson(db: Queryable, memberEmail: string): Promise<SeededPerson> {
  const first = await seedAudience(db, {
    name: 'Newsletter',
    headers: ['Name'],
    contacts: [
      { email: 'amy@example.org', data: { Name: 'Amy' } },
      { email: PERSON, data: { Name: PERSON_NAME } },
      { email: 'bea@example.org', data: { Name: 'Bea' } },
      { email: 'Zoe.Quill@Example.NET', data: { Name: PERSON_NAME }, error: 'Duplicate email address in this audience' },
      { email: 'cid@example.org', data: { Name: 'Cid' } },
      { email: 'not an address', data: { Name: 'Typo' }, error: 'Invalid email address' },
      { email: 'dee@example.org', data: { Name: 'Dee' } },
    ],
  });
  const second = await seedAudience(db, {
    name: 'Events',
    headers: ['Name', 'City'],
    contacts: [
      { email: 'ZOE.QUILL@example.net', data: { Name: PERSON_NAME, City: 'Quillport' } },
      { email: 'eve@example.org', data: { Name: 'Eve', City: 'Lyon' } },
    ],
  });
  const deleted = await seedAudience(db, { name: 'Old list', headers: [], contacts: [{ email: PERSON }, { email: 'fay@example.org' }] });
  await db.query('UPDATE audiences SET deleted_at = now() WHERE id = $1', [deleted.id]);
  for (const audience of [first, second])
    await db.query(
      `INSERT INTO activity (member_email, kind, object_type, object_id, object_name, details, created_at)
       VALUES ($1, 'import', 'audience', $2, 'List', '{"source":"CSV"}', now() - interval '3 days'),
              ($1, 'import-finished', 'audience', $2, 'List', '{"contacts":7}', now() - interval '3 days' + interval '1 minute')`,
      [memberEmail, audience.id],
    );

  const firstCampaign = await campaign(db, 'Spring news', first.id);
  const sent = await mails(db, firstCampaign, first.id, ['amy@example.org', PERSON, 'bea@example.org', 'cid@example.org'], {});
  const { rows: links } = await db.query<{ id: number }>(
    `INSERT INTO campaign_links (campaign_id, href, position) VALUES ($1, 'https://example.org/spring', 0) RETURNING id`,
    [firstCampaign],
  );
  const linkId = Number(links[0]!.id);
  const job = sent.get(PERSON)!;
  await hit(db, firstCampaign, job, 'OPEN', { machine: 'apple-privacy-proxy', ip: '17.58.0.9', agent: 'Mozilla/5.0', minutesAfter: 1 });
  await hit(db, firstCampaign, job, 'OPEN', { machine: null, ip: '203.0.113.77', agent: 'Thunderbird/128.0', minutesAfter: 30 });
  await hit(db, firstCampaign, job, 'CLICK', { machine: null, ip: '203.0.113.77', agent: 'Firefox/130.0', linkId, minutesAfter: 31 });
  // Someone else's hits, so the figures have more than the person in them.
  await hit(db, firstCampaign, sent.get('amy@example.org')!, 'OPEN', {
    machine: null,
    ip: '198.51.100.1',
    agent: 'Outlook',
    minutesAfter: 5,
  });
  await hit(db, firstCampaign, sent.get('bea@example.org')!, 'CLICK', {
    machine: 'too-soon',
    ip: '198.51.100.2',
    agent: 'Scanner',
    linkId,
    minutesAfter: 0,
  });
  // The person unsubscribed through the first campaign's mail.
  await db.query(`INSERT INTO suppressions (email_lower, reason, campaign_id) VALUES ($1, 'UNSUBSCRIBE', $2)`, [PERSON, firstCampaign]);
  await db.query(
    `INSERT INTO activity (member_email, kind, object_type, object_id, object_name) VALUES ($1, 'unsubscribe', 'campaign', $2, 'Spring news')`,
    [PERSON, firstCampaign],
  );

  const secondCampaign = await campaign(db, 'Event invitation', second.id);
  const invited = await mails(db, secondCampaign, second.id, [PERSON, 'eve@example.org'], { [PERSON]: 'SENT_WAIT_ACK' });

  // A member added it once and another removed it; a run of soft bounces; a member's searches for it.
  await db.query(
    `INSERT INTO suppression_removals (email_lower, reason, campaign_id, suppressed_at, removed_by_email)
     VALUES ($1, 'MEMBER', NULL, now() - interval '20 days', $2)`,
    [PERSON, memberEmail],
  );
  await db.query(`INSERT INTO soft_bounce_streaks (email_lower, bounces, last_message_id) VALUES ($1, 1, 'ses-x')`, [PERSON]);
  await db.query(
    `INSERT INTO activity (member_email, kind, object_type, object_id, object_name, details)
     VALUES ($1, 'suppression-remove', 'suppression', NULL, $2, '{"reason":"MEMBER"}'),
            ($1, 'export', 'campaign', $3, 'Spring news', jsonb_build_object('what', 'email performance', 'search', 'Zoe.Quill@example.NET'))`,
    [memberEmail, PERSON, firstCampaign],
  );
  return {
    audiences: { first: first.id, second: second.id, deleted: deleted.id },
    campaigns: { first: firstCampaign, second: secondCampaign },
    jobs: [job, invited.get(PERSON)!],
  };
}

/**
 * Where `text` is still held, case-insensitively: "table.column" for every text, varchar, json or
 * jsonb column (arrays of them too) of every table of the schema, read from information_schema, so a
 * table added later is scanned without touching this.
 */
export async function placesHolding(db: Queryable, text: string): Promise<string[]> {
  const { rows: columns } = await db.query<{ table: string; column: string }>(
    `SELECT c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
             OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar', '_json', '_jsonb')))
      ORDER BY 1, 2`,
  );
  const found: string[] = [];
  for (const { table, column } of columns) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
      [text],
    );
    if (rows[0]!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}
