/**
 * Every statement of importing: the claim of an audience for an import, the import's transaction
 * (its session settings, the audience's lock, the COPY of the contacts, the audience's update), a
 * failed import, the stale-import sweep, and the index upkeep after an import.
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { asDomainError, type Database, type Sql, type Tx } from '../../db/database.js';
import { DATABASE_UNAVAILABLE, DomainError } from '../../errors.js';
import { audienceLockArgs } from '../audiences/locks.js';
import { DUPLICATE_EMAIL } from '../contacts/email.js';
import { insertAudienceFields } from '../fields/repository.js';
import { CONTACT_COPY_COLUMNS } from './contact-rows.js';
import type { AudienceFieldRule, NewAudienceField, RememberedMapping } from './mapping.js';
import type { ImportSource } from './queues.js';

/** What a finished import writes on its audience (its headers are its fields' keys). */
export interface ImportedContacts {
  source: ImportSource;
  contacts: number;
  contactsWithErrors: number;
}

/** The audience's field keys in position order, as audiences.headers holds them ($1 is the audience). */
const FIELD_KEYS = `(SELECT coalesce(jsonb_agg(key ORDER BY position, key), '[]'::jsonb) FROM audience_fields WHERE audience_id = $1)`;

/** An open `COPY contacts` of one import (openContactCopy). */
export interface ContactCopy {
  /** Writes COPY text; resolves when more may be written. */
  write(text: Buffer): Promise<void>;
  /** Ends the COPY; resolves once PostgreSQL has stored every row written. */
  end(): Promise<void>;
  /** Ends the COPY with a failure (the import is failing), whatever state it is in. */
  abort(): Promise<void>;
}

/**
 * What an open COPY's failure means to the queue: the stream closed under us (its connection went: nothing else
 * closes it while rows are written) or a lost connection is the database's outage, retried without using up an
 * attempt; anything else (a bad row) stays the error it is.
 */
function copyFailure(error: unknown, connectionLost: boolean): never {
  const closed = connectionLost || (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
  throw closed ? new DomainError('unavailable', DATABASE_UNAVAILABLE, { cause: error }) : asDomainError(error);
}

export function importRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>): Promise<T> => db.transaction(work),

    /**
     * Sets isImporting when the audience can take an import (live, no source, no contact added by hand,
     * none running; a hand's addition holds the audience row, so it commits before or sees the claim), holding
     * the audience's lock to the end of the transaction: an importer handed the message before the
     * commit waits for it, then sees the claim.
     */
    async claim(tx: Tx, audienceId: number): Promise<boolean> {
      await lockAudience(tx, audienceId);
      const [count] = await db.models.Audience.update(
        { isImporting: true, importErrorMessage: null, importStartedAt: new Date() },
        { where: { id: audienceId, deletedAt: null, source: null, numberOfContacts: 0, isImporting: false }, transaction: tx.transaction },
      );
      return count === 1;
    },

    /**
     * Starts an import's transaction: its session settings, then the audience's lock (a purge or
     * another import of it finishes first), then the audience as that leaves it. Answers its name,
     * or why there is nothing to import (the message is a duplicate, or the audience went).
     */
    async startImport(tx: Tx, audienceId: number): Promise<{ name: string } | { skip: string }> {
      // The trigram index (email search) is most of the COPY's cost: it takes new entries into a
      // pending list and merges that list into the index whenever it passes gin_pending_list_limit,
      // sorting it in work_mem. Fewer, larger merges cost less CPU in total (~7% of the whole COPY at
      // a million rows, measured as the backend's CPU time) and leave at most 16 MB pending, which a
      // search still reads quickly.
      await tx.query(`SET LOCAL work_mem = '64MB'`);
      await tx.query(`SET LOCAL gin_pending_list_limit = '16MB'`);
      // For storedAddresses, which must descend the address index. The transaction's other statements
      // read and update one audience by its key and copy contacts: none wants a sort or a scan of a table.
      await tx.query(`SET LOCAL enable_sort = off`);
      await tx.query(`SET LOCAL enable_seqscan = off`);
      await tx.query(`SET LOCAL enable_bitmapscan = off`);
      await lockAudience(tx, audienceId);
      const { rows } = await tx.query<{ is_importing: boolean; deleted: boolean; source: string | null; name: string }>(
        'SELECT is_importing, deleted_at IS NOT NULL AS deleted, source, name FROM audiences WHERE id = $1',
        [audienceId],
      );
      const audience = rows[0];
      if (!audience) return { skip: 'audience gone' };
      if (audience.deleted) return { skip: 'audience deleted' };
      if (!audience.is_importing || audience.source !== null) return { skip: 'no import pending' };
      return { name: audience.name };
    },

    /**
     * A `COPY contacts` left open: the import writes COPY text (contact-rows.ts) into it as it reads the file, and
     * ends it only when it must read what it stored (a duplicate lookup) or at the end, so that PostgreSQL stores
     * rows without a pause between statements while Node reads the next ones.
     */
    openContactCopy(tx: Tx): ContactCopy {
      const stream = tx.client.query(copyFrom(`COPY contacts ${CONTACT_COPY_COLUMNS} FROM STDIN`));
      // Settles once PostgreSQL has ended the COPY, or with its error; listened to from the start, so that an error
      // while the importer is busy elsewhere is kept for its next call rather than thrown as an unhandled event.
      const ended = finished(stream);
      ended.catch(() => undefined);
      // A connection cut mid-COPY fails the stream with whatever pg met writing to a socket that is gone (a
      // TypeError, not a connection error): the client's own 'end' says which it was.
      let connectionLost = false;
      const lost = () => {
        connectionLost = true;
      };
      tx.client.once('end', lost);
      const failure = (error: unknown): never => copyFailure(error, connectionLost);
      return {
        async write(text) {
          // Backpressure: at most the socket's buffer and one segment ahead of PostgreSQL.
          try {
            if (!stream.write(text)) await Promise.race([once(stream, 'drain'), ended]);
          } catch (error) {
            failure(error);
          }
        },
        async end() {
          try {
            stream.end();
            await ended;
          } catch (error) {
            failure(error);
          } finally {
            tx.client.off('end', lost);
          }
        },
        async abort() {
          // CopyFail: PostgreSQL drops the rows of this COPY, and the transaction rolls back after.
          stream.destroy();
          await ended.catch(() => undefined);
          tx.client.off('end', lost);
        },
      };
    },

    /**
     * Of the contacts the import has copied so far, valid or duplicates (which a valid one comes
     * before), those whose address equals one of `emails` under address_key.
     *
     * One descent of the (audience_id, address_key(email)) index per address, always: the first
     * such contact at or after the address in the index's order, kept when it is the address. The
     * planner cannot be left to choose: inside the import's transaction its statistics know nothing
     * of the contacts just copied, so it believes the audience has a row or two and would read all
     * of them, or the trigram index, for every address (seconds each at a few thousand contacts). The
     * order asked for is the index's alone, and the import's transaction has sorting off (as well as
     * sequential and bitmap scans, which would need it; see startImport): every other plan is priced out.
     */
    async storedAddresses(tx: Tx, audienceId: number, emails: string[]): Promise<string[]> {
      const { rows } = await tx.query<{ email: string }>(
        `SELECT stored.email FROM unnest($2::text[]) AS given(email)
           CROSS JOIN LATERAL (SELECT c.email FROM contacts c
                                WHERE c.audience_id = $1 AND address_key(c.email) >= address_key(given.email)
                                  AND (c.valid_seq IS NOT NULL OR c.error_message = $3)
                                ORDER BY address_key(c.email) LIMIT 1) stored
          WHERE address_key(stored.email) = address_key(given.email)`,
        [audienceId, emails, DUPLICATE_EMAIL],
      );
      return rows.map((row) => row.email);
    },

    /**
     * Ends an import on its audience: source and counts, no longer importing; answers its headers (its fields' keys)
     * and the highest contact id it wrote: the COPY drew its ids from contacts_id_seq in this session, so currval is
     * the last of them, and any contact the audience gains later has a higher one (the consent history's rule).
     */
    async finishImport(tx: Tx, audienceId: number, imported: ImportedContacts): Promise<{ headers: string[]; lastContactId: number }> {
      const { rows } = await tx.query<{ headers: string[]; lastContactId: string }>(
        `UPDATE audiences
            SET headers = ${FIELD_KEYS}, source = $2, number_of_contacts = $3, number_of_contacts_with_errors = $4,
                is_importing = false, import_error_message = NULL, import_started_at = NULL, updated_at = now()
          WHERE id = $1
          RETURNING headers, currval('contacts_id_seq') AS "lastContactId"`,
        [audienceId, imported.source, imported.contacts, imported.contactsWithErrors],
      );
      return { headers: rows[0]?.headers ?? [], lastContactId: Number(rows[0]?.lastContactId ?? 0) };
    },

    /** The audience's fields, in position order (in a transaction that holds the audience's lock, or alone for a screen). */
    async audienceFields(sql: Sql, audienceId: number): Promise<AudienceFieldRule[]> {
      const { rows } = await sql.query<AudienceFieldRule>(
        `SELECT key, label, type, options, required, position FROM audience_fields WHERE audience_id = $1 ORDER BY position, key`,
        [audienceId],
      );
      return rows;
    },

    /**
     * What an accepted import does to the audience's fields, in the transaction that claims it: creates the new
     * fields, keeps headers equal to the keys in position order, and remembers the mapping for the next import.
     */
    async applyMapping(tx: Tx, audienceId: number, newFields: readonly NewAudienceField[], remembered: RememberedMapping): Promise<void> {
      await insertAudienceFields(tx, audienceId, newFields);
      await tx.query(`UPDATE audiences SET headers = ${FIELD_KEYS}, import_mapping = $2::jsonb WHERE id = $1`, [
        audienceId,
        JSON.stringify(remembered),
      ]);
    },

    /** Creates fields inside the import's transaction (an import queued by the release before, which made none). */
    createFields: (tx: Tx, audienceId: number, fields: readonly NewAudienceField[]) => insertAudienceFields(tx, audienceId, fields),

    /** The mapping the audience's last accepted import used, or null; undefined when the audience does not exist. */
    async rememberedMapping(audienceId: number): Promise<RememberedMapping | null | undefined> {
      const { rows } = await db.query<{ import_mapping: RememberedMapping | null }>(
        'SELECT import_mapping FROM audiences WHERE id = $1 AND deleted_at IS NULL',
        [audienceId],
      );
      return rows.length === 0 ? undefined : rows[0]!.import_mapping;
    },

    /** Records a failed import and answers the audience's name; a no-op (undefined) if the audience is no longer importing. */
    async failImport(audienceId: number, message: string, tx?: Tx): Promise<string | undefined> {
      const { rows } = await (tx ?? db).query<{ name: string }>(
        `UPDATE audiences SET is_importing = false, import_error_message = $2, import_started_at = NULL, updated_at = now()
          WHERE id = $1 AND is_importing RETURNING name`,
        [audienceId, message],
      );
      return rows[0]?.name;
    },

    /**
     * Fails imports older than `staleAfterMs` that no worker holds (the audience lock is free): their
     * message is gone (dead-lettered, or lost with an in-process queue on restart).
     */
    async failStaleImports(staleAfterMs: number, message: string): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(
        `UPDATE audiences SET is_importing = false, import_error_message = $2, import_started_at = NULL, updated_at = now()
          WHERE id IN (SELECT id FROM audiences
                        WHERE is_importing AND (import_started_at IS NULL OR import_started_at < now() - $1 * interval '1 millisecond'))
            AND pg_try_advisory_xact_lock(${audienceLockArgs('id')})
          RETURNING id`,
        [staleAfterMs, message],
      );
      return rows.map((row) => row.id);
    },

    /**
     * After an import has committed (the audience is already usable): merges what the trigram index
     * still holds in its pending list, which every email search would otherwise read through, and
     * refreshes the planner's statistics, which choose between the two search plans
     * (contacts/repository.ts).
     */
    async settleAfterImport(): Promise<void> {
      await db.query(`SELECT gin_clean_pending_list('contacts_email_trgm'::regclass)`);
      await db.query('ANALYZE contacts');
    },
  };
}

export type ImportRepository = ReturnType<typeof importRepository>;

/** Waits for, then holds to the end of the transaction, the audience's rewrite lock (audiences/locks.ts). */
async function lockAudience(tx: Tx, audienceId: number): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [audienceId]);
}
