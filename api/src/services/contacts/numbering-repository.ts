/**
 * One contact at a time, with the audience's numbers kept dense (imports/contact-rows.ts: `seq` over
 * all its contacts, `valid_seq` over the valid ones, `error_seq` over those with an error, so that a
 * page is a range). An import numbers a whole file at once; a member's addition, edit or deletion and
 * an erasure come through here:
 *  - adding appends: the next number of each numbering the contact belongs to;
 *  - removing moves the contacts numbered last into the holes (a few rows, never the million after the
 *    first hole), and drops the contacts from follow-ups that have not mailed them yet;
 *  - a contact whose error is fixed leaves `error_seq` (the last error contact takes its number) and
 *    takes the next `valid_seq`.
 * The audience's counts move with them, under the audience row's lock (lockAudienceRow), which every
 * caller takes first. Each change also bumps `updated_at`: the contact searches' cache keys on it.
 */
import type { Tx } from '../../db/database.js';

/** The audience row as a change of its contacts needs it, read under its lock. */
export interface LockedAudience {
  id: number;
  name: string;
  deleted: boolean;
  source: string | null;
  /** Its fields' keys in order (migration 0021). */
  headers: string[];
  isImporting: boolean;
  contacts: number;
  errors: number;
}

/** A contact's place in its audience's numberings. */
export interface NumberedContact {
  id: number;
  audienceId: number;
  seq: number | null;
  validSeq: number | null;
  errorSeq: number | null;
}

type Numbering = 'seq' | 'valid_seq' | 'error_seq';

/** Locks audience rows (in id order, as every statement that changes several does) and reads their counts. */
export async function lockAudienceRows(tx: Tx, audienceIds: number[]): Promise<LockedAudience[]> {
  const { rows } = await tx.query<LockedAudience>(
    `SELECT id, name, deleted_at IS NOT NULL AS deleted, source, headers, is_importing AS "isImporting",
            number_of_contacts AS contacts, number_of_contacts_with_errors AS errors
       FROM audiences WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [audienceIds],
  );
  return rows;
}

export async function lockAudienceRow(tx: Tx, audienceId: number): Promise<LockedAudience | undefined> {
  return (await lockAudienceRows(tx, [audienceId]))[0];
}

/**
 * Keeps one numbering dense after `gone` (the numbers of contacts that left it) left it: the contacts
 * numbered after the new end take the holes below it, in order.
 */
async function closeHoles(tx: Tx, audienceId: number, column: Numbering, total: number, gone: number[]): Promise<void> {
  const end = total - gone.length;
  const holes = gone.filter((n) => n <= end).sort((a, b) => a - b);
  if (holes.length === 0) return;
  const { rows } = await tx.query<{ id: number }>(
    `SELECT id FROM contacts WHERE audience_id = $1 AND ${column} > $2 ORDER BY ${column} LIMIT $3`,
    [audienceId, end, holes.length],
  );
  await tx.query(`UPDATE contacts c SET ${column} = m.n FROM unnest($1::bigint[], $2::int[]) AS m(id, n) WHERE c.id = m.id`, [
    rows.map((row) => row.id),
    holes.slice(0, rows.length),
  ]);
}

/**
 * What removed contacts leave in follow-ups: their frozen recipients who have no mail from it yet are
 * dropped, its last recipients taking their numbers, and its count follows. (A campaign's mails to an
 * erased address are added back to its NOT_SENT count by their address: migration 0022.)
 */
async function dropRecipients(tx: Tx, contactIds: number[], audienceIds: number[]): Promise<void> {
  const { rows } = await tx.query<{ campaignId: number; count: number; seqs: number[] }>(
    `WITH gone AS (
       DELETE FROM follow_up_recipients r
        WHERE r.campaign_id IN (SELECT id FROM campaigns WHERE follow_up_recipients IS NOT NULL AND audience_id = ANY($2::bigint[]))
          AND r.contact_id = ANY($1::bigint[])
          AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = r.campaign_id AND j.contact_id = r.contact_id)
       RETURNING r.campaign_id, r.seq)
     SELECT g.campaign_id AS "campaignId", c.follow_up_count AS count, array_agg(g.seq) AS seqs
       FROM gone g JOIN campaigns c ON c.id = g.campaign_id GROUP BY 1, 2 ORDER BY 1`,
    [contactIds, audienceIds],
  );
  for (const { campaignId, count, seqs } of rows) {
    const end = count - seqs.length;
    const holes = seqs.filter((n) => n <= end).sort((a, b) => a - b);
    if (holes.length > 0) {
      await tx.query(
        `WITH last AS (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM follow_up_recipients WHERE campaign_id = $1 AND seq > $2)
         UPDATE follow_up_recipients r SET seq = ($3::int[])[last.n] FROM last
          WHERE r.campaign_id = $1 AND r.seq = last.seq AND last.n <= cardinality($3::int[])`,
        [campaignId, end, holes],
      );
    }
    await tx.query('UPDATE campaigns SET follow_up_count = follow_up_count - $2 WHERE id = $1', [campaignId, seqs.length]);
  }
}

/**
 * Deletes contacts, of any audiences. `audiences` are the live ones among theirs, locked by the caller
 * (lockAudienceRows): each keeps its numbers dense and its counts right. A deleted audience's contacts
 * just go (its purge removes the rest).
 */
export async function removeContacts(tx: Tx, audiences: LockedAudience[], contacts: NumberedContact[]): Promise<void> {
  if (contacts.length === 0) return;
  await dropRecipients(
    tx,
    contacts.map((c) => c.id),
    [...new Set(contacts.map((c) => c.audienceId))],
  );
  await tx.query('DELETE FROM contacts WHERE id = ANY($1::bigint[])', [contacts.map((c) => c.id)]);
  for (const audience of audiences) {
    const gone = contacts.filter((c) => c.audienceId === audience.id);
    if (gone.length === 0) continue;
    const numbers = (pick: (c: NumberedContact) => number | null) => gone.map(pick).filter((n): n is number => n !== null);
    const errors = numbers((c) => c.errorSeq);
    await closeHoles(
      tx,
      audience.id,
      'seq',
      audience.contacts,
      numbers((c) => c.seq),
    );
    await closeHoles(
      tx,
      audience.id,
      'valid_seq',
      audience.contacts - audience.errors,
      numbers((c) => c.validSeq),
    );
    await closeHoles(tx, audience.id, 'error_seq', audience.errors, errors);
    await tx.query(
      `UPDATE audiences SET number_of_contacts = number_of_contacts - $2, number_of_contacts_with_errors = number_of_contacts_with_errors - $3,
              updated_at = now()
        WHERE id = $1`,
      [audience.id, gone.length, errors.length],
    );
  }
}

/** Adds a contact after the audience's last ones (valid when `errorMessage` is null); its id. */
export async function appendContact(
  tx: Tx,
  audience: LockedAudience,
  contact: { email: string; data: Record<string, unknown>; errorMessage: string | null },
): Promise<number> {
  const valid = contact.errorMessage === null;
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO contacts (audience_id, email, error_message, data, seq, valid_seq, error_seq)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7) RETURNING id`,
    [
      audience.id,
      contact.email,
      contact.errorMessage,
      JSON.stringify(contact.data),
      audience.contacts + 1,
      valid ? audience.contacts - audience.errors + 1 : null,
      valid ? null : audience.errors + 1,
    ],
  );
  await tx.query(
    `UPDATE audiences SET number_of_contacts = number_of_contacts + 1, number_of_contacts_with_errors = number_of_contacts_with_errors + $2,
            updated_at = now()
      WHERE id = $1`,
    [audience.id, valid ? 0 : 1],
  );
  return rows[0]!.id;
}

/**
 * Rewrites a contact's address and values. A contact whose error this clears becomes valid: it leaves
 * `error_seq` (the last error contact takes its number) and takes the next `valid_seq`.
 */
export async function rewriteContact(
  tx: Tx,
  audience: LockedAudience,
  contact: NumberedContact,
  values: { email: string; data: Record<string, unknown> },
): Promise<void> {
  const fixed = contact.errorSeq !== null;
  await tx.query(
    `UPDATE contacts SET email = $2, data = $3::jsonb, error_message = NULL,
            valid_seq = CASE WHEN $4 THEN $5 ELSE valid_seq END, error_seq = CASE WHEN $4 THEN NULL ELSE error_seq END
      WHERE id = $1`,
    [contact.id, values.email, JSON.stringify(values.data), fixed, audience.contacts - audience.errors + 1],
  );
  if (fixed) await closeHoles(tx, audience.id, 'error_seq', audience.errors, [contact.errorSeq!]);
  await tx.query(
    'UPDATE audiences SET number_of_contacts_with_errors = number_of_contacts_with_errors - $2, updated_at = now() WHERE id = $1',
    [audience.id, fixed ? 1 : 0],
  );
}
