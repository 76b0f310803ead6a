/**
 * The statements of scheduled sending (an addition to the spec; migration 0011): a draft marked
 * SCHEDULED and back, and the due campaigns read from the partial index campaigns_due.
 */
import { fn, Op } from 'sequelize';
import type { Database, Tx } from '../../db/database.js';

export function scheduleRepository(db: Database) {
  const { Campaign: Campaigns } = db.models;

  return {
    /** A DRAFT (or an approved request, issue 27) becomes SCHEDULED for `at`; false when it is not (or no longer) in `from`. */
    async markScheduled(
      tx: Tx,
      id: number,
      at: Date,
      updatedByEmail: string | null,
      from: 'DRAFT' | 'AWAITING_APPROVAL' = 'DRAFT',
    ): Promise<boolean> {
      const [count] = await Campaigns.update(
        { status: 'SCHEDULED', scheduledAt: at, errorMessage: null, updatedByEmail },
        { where: { id, status: from }, transaction: tx.transaction },
      );
      return count === 1;
    },

    /**
     * A SCHEDULED campaign becomes a DRAFT again, its schedule dropped, with `errorMessage` when the
     * sweep could not start it; false when it is not (or no longer) scheduled.
     */
    async markUnscheduled(tx: Tx, id: number, change: { updatedByEmail?: string | null; errorMessage?: string | null }): Promise<boolean> {
      const [count] = await Campaigns.update(
        {
          status: 'DRAFT',
          scheduledAt: null,
          errorMessage: change.errorMessage ?? null,
          ...('updatedByEmail' in change ? { updatedByEmail: change.updatedByEmail ?? null } : {}),
        },
        { where: { id, status: 'SCHEDULED' }, transaction: tx.transaction },
      );
      return count === 1;
    },

    /** Scheduled campaigns whose time has come, the oldest first (the partial index campaigns_due). */
    async dueCampaignIds(limit: number): Promise<number[]> {
      const rows = await Campaigns.findAll({
        attributes: ['id'],
        // The database's clock, the one every worker shares.
        where: { status: 'SCHEDULED', scheduledAt: { [Op.lte]: fn('now') } },
        order: [['scheduledAt', 'ASC']],
        limit,
      });
      return rows.map((row) => row.id);
    },
  };
}

export type ScheduleRepository = ReturnType<typeof scheduleRepository>;
