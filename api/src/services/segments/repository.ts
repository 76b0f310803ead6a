/**
 * The statements of segments (issue 26): the segments themselves through their model, what a rule is checked
 * against (the audience's fields and sent campaigns), and the count and sample of a compiled rule over the
 * contacts a send would reach. The rule's SQL is compile-repository.ts's.
 */
import type { Contact, Schemas } from '@mailroom/api-client';
import { col, fn, Op, UniqueConstraintError, where } from 'sequelize';
import type { Database, Tx } from '../../db/database.js';
import type { Segment as SegmentRow } from '../../db/models/index.js';
import { listAudienceFields } from '../fields/repository.js';
import { compileRule, STATEMENT_SETTINGS, sendable } from './compile-repository.js';
import type { CheckedRule, RuleContext, SegmentRule } from './rule.js';

export type Segment = Schemas['Segment'];

/** How many matching contacts a count's sample answers. */
export const SAMPLE_SIZE = 10;

const toSegment = (row: SegmentRow): Segment => ({
  id: row.id,
  audienceId: row.audienceId,
  name: row.name,
  rule: row.rule,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The audience's sendable contacts that `rule` matches, as FROM ... WHERE, with its parameters ($1 the audience). */
export function matching(rule: CheckedRule, audienceId: number): { from: string; params: unknown[] } {
  const compiled = compileRule(rule, '$1', 2);
  return { from: `FROM contacts c WHERE ${sendable('$1')} AND (${compiled.sql})`, params: [audienceId, ...compiled.params] };
}

export function segmentRepository(db: Database) {
  const { Segment: Segments } = db.models;

  /** 'duplicate' when the audience has a segment of that name (without regard to case). */
  const uniquely = async <T>(write: () => Promise<T>): Promise<T | 'duplicate'> => {
    try {
      return await write();
    } catch (err) {
      if (err instanceof UniqueConstraintError) return 'duplicate';
      throw err;
    }
  };

  return {
    /** Whether the audience is live (not deleted). */
    async audienceExists(audienceId: number, tx?: Tx): Promise<boolean> {
      const { rows } = await (tx ?? db).query('SELECT 1 FROM audiences WHERE id = $1 AND deleted_at IS NULL', [audienceId]);
      return rows.length === 1;
    },

    /** The audience's name, for the activity log's entry (deleted or not). */
    /** What a rule of the audience is checked against: its fields, and its campaigns that were sent or are sending. */
    async ruleContext(audienceId: number, tx?: Tx): Promise<RuleContext> {
      const [fields, { rows }] = await Promise.all([
        listAudienceFields(db, audienceId, tx),
        (tx ?? db).query<{ id: string }>(`SELECT id FROM campaigns WHERE audience_id = $1 AND status IN ('SENDING', 'SENT', 'ERROR')`, [
          audienceId,
        ]),
      ]);
      return { fields, sentCampaignIds: new Set(rows.map((row) => Number(row.id))) };
    },

    async list(audienceId: number): Promise<Segment[]> {
      const rows = await Segments.findAll({
        where: { audienceId },
        order: [
          ['name', 'ASC'],
          ['id', 'ASC'],
        ],
      });
      return rows.map(toSegment);
    },

    async find(id: number, tx?: Tx): Promise<Segment | undefined> {
      const row = await Segments.findByPk(id, tx ? { transaction: tx.transaction } : {});
      return row ? toSegment(row) : undefined;
    },

    /** The audience's segment of that name, compared as names are kept unique (without regard to case). */
    async findByName(tx: Tx, audienceId: number, name: string): Promise<Segment | undefined> {
      const row = await Segments.findOne({
        where: { audienceId, [Op.and]: [where(fn('lower', col('name')), name.toLowerCase())] },
        transaction: tx.transaction,
      });
      return row ? toSegment(row) : undefined;
    },

    /** The segment, its row locked for the transaction (an edit, a delete, a send reading it). */
    async lock(tx: Tx, id: number, mode: 'update' | 'share' = 'update'): Promise<Segment | undefined> {
      const row = await Segments.findByPk(id, {
        transaction: tx.transaction,
        lock: mode === 'update' ? tx.transaction.LOCK.UPDATE : tx.transaction.LOCK.SHARE,
      });
      return row ? toSegment(row) : undefined;
    },

    async insert(
      tx: Tx,
      values: { audienceId: number; name: string; rule: SegmentRule; email: string | null },
    ): Promise<Segment | 'duplicate'> {
      return uniquely(async () =>
        toSegment(
          await Segments.create(
            {
              audienceId: values.audienceId,
              name: values.name,
              rule: values.rule,
              createdByEmail: values.email,
              updatedByEmail: values.email,
            },
            { transaction: tx.transaction },
          ),
        ),
      );
    },

    async update(tx: Tx, id: number, values: { name: string; rule: SegmentRule; email: string | null }): Promise<'done' | 'duplicate'> {
      return uniquely(async () => {
        await Segments.update(
          { name: values.name, rule: values.rule, updatedByEmail: values.email },
          { where: { id }, transaction: tx.transaction },
        );
        return 'done' as const;
      });
    },

    async destroy(tx: Tx, id: number): Promise<void> {
      await Segments.destroy({ where: { id }, transaction: tx.transaction });
    },

    /** The campaigns not sent yet (DRAFT, SCHEDULED) that target the segment, by name. */
    async pendingCampaigns(tx: Tx, segmentId: number): Promise<{ id: number; name: string }[]> {
      const { rows } = await tx.query<{ id: string; name: string }>(
        `SELECT id, name FROM campaigns WHERE segment_id = $1 AND status IN ('DRAFT', 'SCHEDULED', 'AWAITING_APPROVAL') ORDER BY name, id`,
        [segmentId],
      );
      return rows.map((row) => ({ id: Number(row.id), name: row.name }));
    },

    /** How many of the audience's sendable contacts the rule matches, and up to SAMPLE_SIZE of them (in the audience's order) when asked. */
    async count(audienceId: number, rule: CheckedRule, sample: boolean): Promise<{ count: number; sample?: Contact[] }> {
      const { from, params } = matching(rule, audienceId);
      // One snapshot: the sample is among those counted.
      return db.transaction(
        async (tx) => {
          await tx.query(STATEMENT_SETTINGS);
          const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
          if (!sample) return { count: rows[0]!.n };
          // A send skips the suppressed, so none of them is.
          const { rows: contacts } = await tx.query<Contact>(
            `SELECT c.id, c.email, c.error_message AS "errorMessage", c.data, NULL AS "suppressionReason"
               ${from} ORDER BY c.valid_seq LIMIT ${SAMPLE_SIZE}`,
            params,
          );
          return { count: rows[0]!.n, sample: contacts };
        },
        { isolation: 'REPEATABLE READ', readOnly: true },
      );
    },
  };
}

export type SegmentRepository = ReturnType<typeof segmentRepository>;
