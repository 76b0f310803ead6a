/**
 * SQL of the audiences table. A deleted audience (deleted_at set) is invisible to every read here;
 * its row stays until its contacts are purged.
 */
import type { Audience } from '@mailroom/api-client';
import type pg from 'pg';
import type { AudienceSource } from '../../db/models/audience.js';
import { audienceLockArgs } from './locks.js';

/** The contract's Audience: a change to openapi.yaml that this code does not follow fails the type check. */
export type { Audience };

type Db = pg.Pool | pg.PoolClient;

const COLUMNS = `id, name, headers, source, number_of_contacts, number_of_contacts_with_errors,
  is_importing, import_error_message, created_at`;

interface AudienceRow {
  id: number;
  name: string;
  headers: string[];
  source: AudienceSource | null;
  number_of_contacts: number;
  number_of_contacts_with_errors: number;
  is_importing: boolean;
  import_error_message: string | null;
  created_at: Date;
}

const toAudience = (row: AudienceRow): Audience => ({
  id: row.id,
  name: row.name,
  headers: row.headers,
  source: row.source,
  numberOfContacts: row.number_of_contacts,
  numberOfContactsWithErrors: row.number_of_contacts_with_errors,
  isImporting: row.is_importing,
  importErrorMessage: row.import_error_message,
  createdAt: row.created_at.toISOString(),
});

export async function listAudiences(
  db: Db,
  query: { offset: number; limit: number; name?: string | undefined },
): Promise<{ items: Audience[]; totalItems: number }> {
  // Audiences are few (hundreds): a count and an OFFSET over the live-by-date index are cheap here.
  const params: unknown[] = [];
  let where = 'deleted_at IS NULL';
  if (query.name) {
    params.push(`%${query.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND name ILIKE $${params.length}`;
  }
  const [{ rows }, count] = await Promise.all([
    db.query<AudienceRow>(
      `SELECT ${COLUMNS} FROM audiences WHERE ${where} ORDER BY created_at DESC, id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.limit, query.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM audiences WHERE ${where}`, params),
  ]);
  return { items: rows.map(toAudience), totalItems: count.rows[0]?.total ?? 0 };
}

export async function findAudience(db: Db, id: number): Promise<Audience | undefined> {
  const { rows } = await db.query<AudienceRow>(`SELECT ${COLUMNS} FROM audiences WHERE id = $1 AND deleted_at IS NULL`, [id]);
  return rows[0] && toAudience(rows[0]);
}

export async function insertAudience(db: Db, name: string, createdByEmail: string | null): Promise<number> {
  const { rows } = await db.query<{ id: number }>('INSERT INTO audiences (name, created_by_email) VALUES ($1, $2) RETURNING id', [
    name,
    createdByEmail,
  ]);
  return rows[0]!.id;
}

export async function updateAudienceName(db: Db, id: number, name: string): Promise<Audience | undefined> {
  const { rows } = await db.query<AudienceRow>(
    `UPDATE audiences SET name = $2, updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    [id, name],
  );
  return rows[0] && toAudience(rows[0]);
}

/** Hides the audience at once; false if there was no live audience. */
export async function markAudienceDeleted(db: Db, id: number): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE audiences SET deleted_at = now(), updated_at = now() WHERE id = $1 AND deleted_at IS NULL', [
    id,
  ]);
  return rowCount === 1;
}

/** Sets isImporting when the audience can take an import (live, no source, none running). */
export async function claimImport(db: Db, id: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE audiences SET is_importing = true, import_error_message = NULL, import_started_at = now(), updated_at = now()
      WHERE id = $1 AND deleted_at IS NULL AND source IS NULL AND NOT is_importing`,
    [id],
  );
  return rowCount === 1;
}

/** Undoes claimImport when the import could not be queued. */
export async function releaseImportClaim(db: Db, id: number): Promise<void> {
  await db.query('UPDATE audiences SET is_importing = false, import_started_at = NULL, updated_at = now() WHERE id = $1 AND is_importing', [
    id,
  ]);
}

/**
 * Fails imports older than `staleAfterMs` that no worker holds (the audience lock is free): their
 * message is gone (dead-lettered, or lost with an in-process queue on restart).
 */
export async function failStaleImports(db: Db, staleAfterMs: number, message: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE audiences SET is_importing = false, import_error_message = $2, import_started_at = NULL, updated_at = now()
      WHERE id IN (SELECT id FROM audiences
                    WHERE is_importing AND (import_started_at IS NULL OR import_started_at < now() - $1 * interval '1 millisecond'))
        AND pg_try_advisory_xact_lock(${audienceLockArgs('id')})
      RETURNING id`,
    [staleAfterMs, message],
  );
  return rows.map((row) => row.id);
}

/** Deleted audiences whose row is still there a while after the delete (their purge was lost). */
export async function findUnpurgedAudiences(db: Db, olderThanMs: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM audiences WHERE deleted_at < now() - $1 * interval '1 millisecond' ORDER BY id LIMIT 1000`,
    [olderThanMs],
  );
  return rows.map((row) => row.id);
}
