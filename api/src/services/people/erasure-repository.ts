/**
 * The statements of an erasure (GDPR article 17; docs/decisions/people.md), all on the caller's one
 * transaction. What holds the address, table by table (api/src/db/schema.sql), and what happens to it:
 *  - contacts (the address, its fields in `data`): deleted, in every audience, deleted ones included;
 *    the audience's dense numbers stay dense (its last contacts take the holes) and its counts follow;
 *  - campaign_jobs (email; SES's bounce and error texts, which may quote it): the email becomes the
 *    erased job email (the key's hash and the mail's own domain, so every per-domain figure stays);
 *    the texts get the erased key where they named the address. A queued mail is not sent: it fails;
 *  - tracking_events (the hits on those mails): kept, every figure and verdict with them, without the
 *    client address and agent, the evidence that pointed at a device;
 *  - suppressions, suppression_removals, soft_bounce_streaks (keyed by the address): its suppression
 *    becomes the erased key's, reason ERASED, its former reason kept; removals name the key; a run of
 *    soft bounces goes;
 *  - activity, activity_members: entries naming it name the erased key (a recipient's unsubscribe names
 *    them as its actor; a removal, an export or a search names them in its object or details);
 *  - pending_signups, signup_mails, consent_ledger (sign-ups, migration 0027): waiting sign-ups go; the
 *    confirmation mails' record and the ledger name the erased key (the ledger without client address and
 *    agent), and the ledger gets an ERASED entry for each audience the person was on or signed up to;
 *  - webhook_deliveries (migration 0034): kept deliveries name the erased key instead of the address;
 *  - campaign_domain_counts holds the domain, not the address: unchanged, as are the other aggregates.
 * Locks, in the order the sending statements take them (jobs, then campaigns, then counts): the
 * address's mails first, by the statement that erases them, so a worker's claim of one either
 * committed before (the mail is being sent: the erasure refuses) or waits and finds it FAILED; then
 * every campaign of its audiences, so no send creates a mail for it while this runs; then the mails
 * such a send created before we had its campaign.
 */
import type { Tx } from '../../db/database.js';
import { audienceLockArgs } from '../audiences/locks.js';
import { lockAudienceRows, removeContacts } from '../contacts/numbering-repository.js';
import { likeContains } from '../contacts/repository.js';
import { eraseFromDeliveries } from '../webhooks/repository.js';

/** Until the end of the transaction, a lock not had within `ms` fails the statement (SQLSTATE 55P03). */
export async function waitForLocksAtMost(tx: Tx, ms: number): Promise<void> {
  await tx.query(`SELECT set_config('lock_timeout', $1, true)`, [`${ms}ms`]);
}

/** A queued mail of an erased address is not sent; its error says why. */
export const NOT_SENT_ERASED = 'Not sent: the address was erased.';

export class MailBeingSent extends Error {
  constructor() {
    super('a mail to this address is being sent');
  }
}

export interface Erased {
  erasedAt: Date;
  contacts: number;
  audiences: number;
  mails: number;
  hits: number;
  activityEntries: number;
}

interface FoundContact {
  id: number;
  audienceId: number;
  seq: number | null;
  validSeq: number | null;
  errorSeq: number | null;
  deleted: boolean;
}

/** The address as a PostgreSQL regular expression (ARE) matching it literally: every other character escaped. */
const literalPattern = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`);
/** How a string is written inside JSON text (jsonb::text), without its quotes. */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

interface ErasedJob {
  id: number;
  campaignId: number;
  status: string;
  /** It was queued: it failed now, with NOT_SENT_ERASED. */
  failed: boolean;
}

/**
 * Replaces the address in the mails that still hold it; queued ones fail. The statement's own row
 * locks are the erasure's hold on them (a worker's claim either committed before, and the mail shows
 * SENDING, or waits and finds it FAILED). Throws MailBeingSent, for the transaction to roll back, when
 * a worker holds one: the mail may be handed to SES after this commits.
 */
async function replaceInMails(tx: Tx, address: string, key: string, erasedKey: string): Promise<ErasedJob[]> {
  const { rows } = await tx.query<ErasedJob>(
    `UPDATE campaign_jobs
        SET email = erased_job_email($2, email),
            bounce_message = regexp_replace(bounce_message, $3, $4, 'gi'),
            error_message = CASE WHEN status = 'QUEUED' THEN $5 ELSE regexp_replace(error_message, $3, $4, 'gi') END,
            status = CASE WHEN status = 'QUEUED' THEN 'FAILED' ELSE status END,
            updated_at = CASE WHEN status = 'QUEUED' THEN now() ELSE updated_at END
      WHERE address_key(email) = $1
      RETURNING id, campaign_id AS "campaignId", status, error_message IS NOT DISTINCT FROM $5 AS failed`,
    [key, address, literalPattern(key), erasedKey, NOT_SENT_ERASED],
  );
  if (rows.some((job) => job.status === 'SENDING')) throw new MailBeingSent();
  return rows;
}

/**
 * The address's mails, erased (see replaceInMails); then the campaigns of its audiences are locked
 * (only they can create a mail to it) and what such a send created meanwhile is erased too.
 */
async function eraseMails(tx: Tx, address: string, key: string, erasedKey: string, audienceIds: number[]) {
  const jobs = await replaceInMails(tx, address, key, erasedKey);
  if (audienceIds.length > 0) {
    await tx.query(`SELECT 1 FROM campaigns WHERE audience_id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`, [audienceIds]);
    jobs.push(...(await replaceInMails(tx, address, key, erasedKey)));
  }
  if (jobs.length === 0) return { mails: 0, hits: 0 };
  // The campaigns' own counters follow the mails that failed, as the worker's record does.
  const failed = new Map<number, number>();
  for (const job of jobs) if (job.failed) failed.set(job.campaignId, (failed.get(job.campaignId) ?? 0) + 1);
  if (failed.size > 0) {
    await tx.query(
      `UPDATE campaigns c SET jobs_failed = c.jobs_failed + f.n FROM unnest($1::bigint[], $2::int[]) AS f(id, n) WHERE c.id = f.id`,
      [[...failed.keys()], [...failed.values()]],
    );
  }
  const ids = jobs.map((job) => job.id);
  const { rows } = await tx.query<{ hits: number }>(
    `WITH cleared AS (
       UPDATE tracking_events SET client_ip = NULL, user_agent = NULL
        WHERE job_id = ANY($1::bigint[]) AND (client_ip IS NOT NULL OR user_agent IS NOT NULL))
     SELECT count(*)::int AS hits FROM tracking_events WHERE job_id = ANY($1::bigint[])`,
    [ids],
  );
  return { mails: ids.length, hits: rows[0]!.hits };
}

/** Every contact of the address, in every audience (each probed by (audience_id, address_key(email))). */
async function findContacts(tx: Tx, key: string): Promise<FoundContact[]> {
  const { rows } = await tx.query<FoundContact>(
    `SELECT c.id, a.id AS "audienceId", c.seq, c.valid_seq AS "validSeq", c.error_seq AS "errorSeq", a.deleted_at IS NOT NULL AS deleted
       FROM audiences a
       JOIN LATERAL (SELECT id, seq, valid_seq, error_seq FROM contacts c WHERE c.audience_id = a.id AND address_key(c.email) = $1) c ON true
      ORDER BY a.id, c.id`,
    [key],
  );
  return rows;
}

/** Deletes the contacts (contacts/numbering-repository.ts): a live audience keeps its numbers dense and its counts right. */
async function eraseContacts(tx: Tx, contacts: FoundContact[]): Promise<void> {
  if (contacts.length === 0) return;
  const live = [...new Set(contacts.filter((c) => !c.deleted).map((c) => c.audienceId))].sort((a, b) => a - b);
  // As an import or a purge would (their lock), then the rows whose counts change, in id order.
  for (const id of live) await tx.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [id]);
  await removeContacts(tx, await lockAudienceRows(tx, live), contacts);
}

/** Its suppression becomes the erased key's (reason ERASED, the former reason kept); answers the erasure's date. */
async function eraseSuppression(tx: Tx, key: string, erasedKey: string, memberEmail: string): Promise<Date> {
  const { rows } = await tx.query<{ createdAt: Date }>(
    `WITH former AS (DELETE FROM suppressions WHERE email_lower = $1 RETURNING reason, campaign_id),
          added AS (
            INSERT INTO suppressions (email_lower, reason, campaign_id, added_by_email, reason_before_erasure)
            SELECT $2, 'ERASED', (SELECT campaign_id FROM former), $3, (SELECT reason FROM former)
            ON CONFLICT (email_lower) DO NOTHING
            RETURNING created_at)
     SELECT coalesce((SELECT created_at FROM added), (SELECT created_at FROM suppressions WHERE email_lower = $2)) AS "createdAt"`,
    [key, erasedKey, memberEmail],
  );
  await tx.query('UPDATE suppression_removals SET email_lower = $2 WHERE email_lower = $1', [key, erasedKey]);
  await tx.query('DELETE FROM soft_bounce_streaks WHERE email_lower = $1', [key]);
  return rows[0]!.createdAt;
}

/**
 * The kinds of activity entries that can name a contact's address in their object or details: a
 * removal names the suppression's address, an export its search or the person exported. Each is read
 * from its range of the (kind) index, not the whole log; a kind added later that names addresses is
 * added here (the schema-wide scan of people.test.ts fails until it is).
 */
export const NAMING_KINDS = ['suppression-remove', 'export'];

/**
 * Entries of the activity log that name the address name the erased key instead (migration 0022 lets
 * an erasure's transaction do this one change). A member's own entries keep the member: only a
 * recipient's unsubscribe has the person as its actor.
 */
async function eraseActivity(tx: Tx, key: string, erasedKey: string): Promise<number> {
  const { rowCount } = await tx.query(
    `UPDATE activity
        SET member_email = CASE WHEN member_email = $1 AND kind = 'unsubscribe' THEN $2 ELSE member_email END,
            object_name = regexp_replace(object_name, $3, $2, 'gi'),
            details = regexp_replace(details::text, $4, $2, 'gi')::jsonb
      WHERE (member_email = $1 AND kind = 'unsubscribe')
         OR (kind = ANY($7::text[]) AND (address_key(object_name) LIKE $5 OR address_key(details::text) LIKE $6))`,
    [key, erasedKey, literalPattern(key), literalPattern(inJson(key)), likeContains(key), likeContains(inJson(key)), NAMING_KINDS],
  );
  await tx.query(`DELETE FROM activity_members WHERE email = $1 AND NOT EXISTS (SELECT 1 FROM activity WHERE member_email = $1)`, [key]);
  await tx.query(
    `INSERT INTO activity_members (email) SELECT $1 WHERE EXISTS (SELECT 1 FROM activity WHERE member_email = $1) ON CONFLICT DO NOTHING`,
    [erasedKey],
  );
  return rowCount;
}

/**
 * Erases `address` (as typed; `key` and `erasedKey` are the database's folds of it) on `tx`, for the
 * member `memberEmail`. Throws MailBeingSent, changing nothing, while a worker holds one of its mails.
 */
/** What sign-ups hold of the address (migration 0027), for the audiences its contacts were in. */
async function eraseSignups(tx: Tx, key: string, erasedKey: string, audienceIds: number[]): Promise<void> {
  const { rows } = await tx.query<{ audience_id: number }>(
    `DELETE FROM pending_signups WHERE address_key(email) = $1 RETURNING audience_id`,
    [key],
  );
  await tx.query(`UPDATE signup_mails SET address_key = $2 WHERE address_key = $1`, [key, erasedKey]);
  await eraseFromDeliveries(tx, key, erasedKey);
  const { rows: ledger } = await tx.query<{ audience_id: number }>(
    `UPDATE consent_ledger SET email = $2, address_key = $2, client_address = NULL, user_agent = NULL, detail = NULL
      WHERE address_key = $1 RETURNING audience_id`,
    [key, erasedKey],
  );
  const audiences = [...new Set([...audienceIds, ...rows.map((r) => r.audience_id), ...ledger.map((r) => r.audience_id)])];
  await tx.query(
    `INSERT INTO consent_ledger (audience_id, address_key, email, event) SELECT a, $2, $2, 'ERASED' FROM unnest($1::bigint[]) AS a`,
    [audiences, erasedKey],
  );
}

export async function erase(tx: Tx, address: string, key: string, erasedKey: string, memberEmail: string): Promise<Erased> {
  await tx.query(`SELECT set_config('mailroom.erasure', 'on', true)`);
  const audienceIds = [...new Set((await findContacts(tx, key)).map((c) => c.audienceId))];
  const { mails, hits } = await eraseMails(tx, address, key, erasedKey, audienceIds);
  // Read again under the campaigns' locks: what an import committed meanwhile goes too.
  const contacts = await findContacts(tx, key);
  await eraseContacts(tx, contacts);
  await eraseSignups(tx, key, erasedKey, audienceIds);
  const erasedAt = await eraseSuppression(tx, key, erasedKey, memberEmail);
  const activityEntries = await eraseActivity(tx, key, erasedKey);
  const audiences = new Set(contacts.map((c) => c.audienceId)).size;
  return { erasedAt, contacts: contacts.length, audiences, mails, hits, activityEntries };
}
