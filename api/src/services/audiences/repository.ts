/**
 * The audiences table, through its Sequelize model (an import's statements on it are the imports
 * repository's). A deleted audience (deleted_at set) is invisible to every read
 * here; its row stays until its contacts are purged.
 */
import type { Audience } from '@mailroom/api-client';
import { Op, type WhereOptions } from 'sequelize';
import type { Database, Sql, Tx } from '../../db/database.js';
import type { Audience as AudienceRow } from '../../db/models/index.js';
import { likeContains } from '../contacts/repository.js';
import { offsetOf, type PageQuery } from '../paging.js';
import { audienceLockArgs } from './locks.js';

/** The contract's Audience: a change to openapi.yaml that this code does not follow fails the type check. */
export type { Audience };

const toAudience = (row: AudienceRow, pendingCount = 0): Audience => ({
  id: row.id,
  name: row.name,
  headers: row.headers,
  source: row.source,
  numberOfContacts: row.numberOfContacts,
  numberOfContactsWithErrors: row.numberOfContactsWithErrors,
  isImporting: row.isImporting,
  importErrorMessage: row.importErrorMessage,
  createdAt: row.createdAt.toISOString(),
  pendingCount,
  publicName: row.publicName ?? null,
});

const LIVE = { deletedAt: null };

export function audienceRepository(db: Database) {
  const { Audience: Audiences } = db.models;

  /** Sign-ups waiting for confirmation per audience (pending_signups; not contacts, so not in the counters). */
  async function pendingCounts(ids: number[], sql: Sql = db): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql.query<{ audience_id: string; n: string }>(
      `SELECT audience_id, count(*) AS n FROM pending_signups WHERE audience_id = ANY($1::bigint[]) AND expires_at > now() GROUP BY audience_id`,
      [ids],
    );
    return new Map(rows.map((row) => [Number(row.audience_id), Number(row.n)]));
  }
  const withPending = async (rows: AudienceRow[], sql?: Sql): Promise<Audience[]> => {
    const pending = await pendingCounts(
      rows.map((row) => row.id),
      sql,
    );
    return rows.map((row) => toAudience(row, pending.get(row.id) ?? 0));
  };

  return {
    async list(query: PageQuery & { name?: string | undefined }): Promise<{ items: Audience[]; totalItems: number }> {
      // Audiences are few (hundreds): a count and an OFFSET over the live-by-date index are cheap here.
      const where: WhereOptions = query.name ? { ...LIVE, name: { [Op.iLike]: likeContains(query.name) } } : LIVE;
      const { rows, count } = await Audiences.findAndCountAll({
        where,
        order: [
          ['createdAt', 'DESC'],
          ['id', 'DESC'],
        ],
        limit: query.limit,
        offset: offsetOf(query),
      });
      return { items: await withPending(rows), totalItems: count };
    },

    async find(id: number): Promise<Audience | undefined> {
      const row = await Audiences.findOne({ where: { id, ...LIVE } });
      return row ? (await withPending([row]))[0] : undefined;
    },

    async insert(tx: Tx, name: string, createdByEmail: string | null): Promise<number> {
      return (await Audiences.create({ name, createdByEmail }, { transaction: tx.transaction })).id;
    },

    /** Renames a live audience; answers it with its former name, or undefined when there is none. */
    async rename(tx: Tx, id: number, name: string): Promise<{ audience: Audience; formerName: string } | undefined> {
      const current = await Audiences.findOne({ attributes: ['name'], where: { id, ...LIVE }, transaction: tx.transaction, lock: true });
      if (!current) return undefined;
      const [, rows] = await Audiences.update({ name }, { where: { id, ...LIVE }, returning: true, transaction: tx.transaction });
      return rows[0] ? { audience: (await withPending([rows[0]], tx))[0]!, formerName: current.name } : undefined;
    },

    /** Sets or clears the public name of a live audience (the preference centre's); undefined when there is none. */
    async setPublicName(id: number, publicName: string | null): Promise<Audience | undefined> {
      const [, rows] = await Audiences.update({ publicName }, { where: { id, ...LIVE }, returning: true });
      return rows[0] ? toAudience(rows[0]) : undefined;
    },

    /** Hides the audience at once; answers its name, or undefined if there was no live audience. */
    async markDeleted(tx: Tx, id: number): Promise<string | undefined> {
      const [, rows] = await Audiences.update(
        { deletedAt: new Date() },
        { where: { id, ...LIVE }, returning: true, transaction: tx.transaction },
      );
      return rows[0]?.name;
    },

    /**
     * Takes the audience's rewrite lock for the transaction (an import of it waits) and tells
     * whether it is a deleted audience whose row is still there, i.e. one to purge.
     */
    async lockDeleted(tx: Tx, id: number): Promise<boolean> {
      await tx.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [id]);
      const row = await Audiences.findOne({ attributes: ['id'], where: { id, deletedAt: { [Op.ne]: null } }, transaction: tx.transaction });
      return row !== null;
    },

    /** Removes a deleted audience's row, once its contacts are gone. */
    async destroyDeleted(tx: Tx, id: number): Promise<void> {
      await Audiences.destroy({ where: { id, deletedAt: { [Op.ne]: null } }, transaction: tx.transaction });
    },

    /** Deleted audiences whose row is still there a while after the delete (their purge was lost). */
    async findUnpurged(olderThanMs: number): Promise<number[]> {
      const rows = await Audiences.findAll({
        attributes: ['id'],
        where: { deletedAt: { [Op.lt]: new Date(Date.now() - olderThanMs) } },
        order: [['id', 'ASC']],
        limit: 1000,
      });
      return rows.map((row) => row.id);
    },
  };
}

export type AudienceRepository = ReturnType<typeof audienceRepository>;
