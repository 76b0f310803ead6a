/**
 * Campaigns and what their calls read around them (the audience, the template, a contact),
 * through the Sequelize models; raw SQL only for the missing-fields scan, which asks PostgreSQL
 * about every valid contact of an audience at once. Scheduling's statements are in
 * schedule-repository.ts, follow-ups' in follow-up-repository.ts, jobs and sending in ../sending.
 */
import type { Campaign, CampaignStatus, CampaignSummary, FollowUp, FollowUpRecipients, ValidationResult } from '@mailroom/api-client';
import { literal, Op, type FindAttributeOptions, type WhereOptions } from 'sequelize';
import type { Database, Tx } from '../../db/database.js';
import type {
  Audience as AudienceRow,
  Campaign as CampaignRow,
  Segment as SegmentRow,
  Template as TemplateRow,
} from '../../db/models/index.js';
import type { FieldValue } from '@mailroom/api-client/fields';
import { likeContains } from '../contacts/repository.js';
import { audienceMergeFields, type MergeFieldRow } from '../fields/repository.js';
import { offsetOf, type PageQuery } from '../paging.js';
import { compileRule, STATEMENT_SETTINGS } from '../segments/compile-repository.js';
import type { CheckedRule } from '../segments/rule.js';

export type { Campaign, CampaignStatus, CampaignSummary, FollowUpRecipients, ValidationResult };

/** The fields a draft's save may set (the name aside). */
export interface CampaignDraftFields {
  audienceId?: number | null;
  templateId?: number | null;
  fromName?: string | null;
  fromEmail?: string | null;
  subject?: string | null;
  previewText?: string | null;
  /** A segment of the audience (issue 26), null for the whole audience. */
  segmentId?: number | null;
}

export interface CampaignTemplateContent {
  id: number;
  name: string;
  html: string | null;
  plainText: string | null;
}

export interface LiveAudience {
  id: number;
  name: string;
  headers: string[];
  isImporting: boolean;
}

export interface MergeContactRow {
  id: number;
  email: string;
  data: Record<string, FieldValue>;
  /** The fields of the contact's audience (merge tags resolve against them). */
  fields: MergeFieldRow[];
}

/** A tag checked by the missing-fields scan: the data key it reads, or null when the audience has none. */
export interface TagKey {
  tag: string;
  key: string | null;
}

type Row = CampaignRow & { audience?: AudienceRow | null; template?: TemplateRow | null; segment?: SegmentRow | null };

/**
 * The segment a campaign targets (issue 26): once sending started, its name and rule as sent (the id null once
 * the segment is deleted); before, the segment as it is now.
 */
const segmentOf = (row: Row): CampaignSummary['segment'] =>
  row.segmentRule !== null
    ? { id: row.segmentId, name: row.segmentName ?? '', rule: row.segmentRule }
    : row.segment
      ? { id: row.segment.id, name: row.segment.name, rule: row.segment.rule }
      : null;

/**
 * The jobs a person opened and clicked (an addition to the spec), from the counts the triggers keep
 * (migration 0010): a sum over a few dozen rows per campaign, never a scan of its jobs.
 */
const humanCount = (column: 'human_opened' | 'human_clicked') =>
  literal(`(SELECT coalesce(sum(k.jobs), 0)::int FROM campaign_job_counts k WHERE k.campaign_id = "Campaign"."id" AND k.${column})`);
const HUMAN_COUNTS: [ReturnType<typeof literal>, string][] = [
  [humanCount('human_opened'), 'humanUniqueOpens'],
  [humanCount('human_clicked'), 'humanUniqueClicks'],
];
const humanFigure = (row: Row, name: string): number => Number(row.get(name) ?? 0);

const followUpOf = (row: Row): FollowUp | null =>
  row.followUpRecipients === null
    ? null
    : {
        campaignId: row.followUpOf,
        campaignName: row.followUpName ?? '',
        recipients: row.followUpRecipients,
        recipientCount: row.followUpCount ?? 0,
      };

const toSummary = (row: Row): CampaignSummary => ({
  id: row.id,
  name: row.name,
  status: row.status,
  audienceId: row.audienceId,
  audienceName: row.audience?.name ?? null,
  numberOfContacts: row.audience?.numberOfContacts ?? 0,
  contactCount: row.contactCount,
  fromName: row.fromName,
  fromEmail: row.fromEmail,
  subject: row.subject,
  previewText: row.previewText,
  templateId: row.templateId,
  deliveryDate: row.deliveryDate?.toISOString() ?? null,
  scheduledAt: row.scheduledAt?.toISOString() ?? null,
  // Only while SENDING: a cancelled campaign keeps no stale pause.
  quotaPausedUntil: row.status === 'SENDING' ? (row.quotaPausedUntil?.toISOString() ?? null) : null,
  pausedFor: row.status === 'SENDING' && row.quotaPausedUntil ? (row.pausedFor ?? 'DAILY_QUOTA') : null,
  updatedAt: row.updatedAt.toISOString(),
  updatedByEmail: row.updatedByEmail,
  jobsSent: row.jobsSent,
  jobsFailed: row.jobsFailed,
  uniqueOpens: row.uniqueOpens,
  uniqueClicks: row.uniqueClicks,
  humanUniqueOpens: humanFigure(row, 'humanUniqueOpens'),
  humanUniqueClicks: humanFigure(row, 'humanUniqueClicks'),
  errorMessage: row.errorMessage,
  // A list row names what a follow-up follows instead of the audience.
  followUp: followUpOf(row),
  segment: segmentOf(row),
});

const toCampaign = (row: Row): Campaign => ({
  ...toSummary(row),
  template: row.template ? { id: row.template.id, name: row.template.name, html: row.template.html, preview: row.template.preview } : null,
  html: row.html,
});

export function campaignRepository(db: Database) {
  const {
    Campaign: Campaigns,
    Audience: Audiences,
    Template: Templates,
    Contact: Contacts,
    CampaignJob: Jobs,
    Segment: Segments,
  } = db.models;
  const audience = { model: Audiences, as: 'audience', attributes: ['name', 'numberOfContacts'] };
  const segment = { model: Segments, as: 'segment', attributes: ['id', 'name', 'rule'] };
  const summaryAttributes: FindAttributeOptions = { exclude: ['html', 'plainText'], include: HUMAN_COUNTS };
  const campaignAttributes: FindAttributeOptions = { include: HUMAN_COUNTS };

  return {
    /** Campaigns are few (hundreds): a count and an OFFSET over the by-date index are cheap. */
    async list(
      query: PageQuery & { name?: string | undefined; status?: CampaignStatus | undefined },
    ): Promise<{ items: CampaignSummary[]; totalItems: number }> {
      const where: WhereOptions = {
        ...(query.name ? { name: { [Op.iLike]: likeContains(query.name) } } : {}),
        // The waiting requests (`status=AWAITING_APPROVAL`, issue 27), or any one status.
        ...(query.status ? { status: query.status } : {}),
      };
      const { rows, count } = await Campaigns.findAndCountAll({
        where,
        attributes: summaryAttributes,
        include: [audience, segment],
        order: [
          ['updatedAt', 'DESC'],
          ['id', 'DESC'],
        ],
        limit: query.limit,
        offset: offsetOf(query),
      });
      return { items: rows.map(toSummary), totalItems: count };
    },

    /** The campaign; within `tx` when given (an action answers what its own transaction made). */
    async find(id: number, tx?: Tx): Promise<Campaign | undefined> {
      const row = await Campaigns.findByPk(id, {
        ...(tx ? { transaction: tx.transaction } : {}),
        attributes: campaignAttributes,
        include: [audience, segment, { model: Templates, as: 'template', attributes: ['id', 'name', 'html', 'preview'] }],
      });
      return row ? toCampaign(row) : undefined;
    },

    async status(id: number): Promise<CampaignRow['status'] | undefined> {
      return (await Campaigns.findByPk(id, { attributes: ['status'] }))?.status;
    },

    /** How many of the campaign's jobs SES confirmed delivered (SENT_SUCCESS). */
    async deliveredCount(id: number): Promise<number> {
      return Jobs.count({ where: { campaignId: id, status: 'SENT_SUCCESS' } });
    },

    async insert(tx: Tx, values: { name: string; templateId: number | null; updatedByEmail: string | null }): Promise<number> {
      return (await Campaigns.create(values, { transaction: tx.transaction })).id;
    },

    /** The campaign's name, its row locked until the transaction ends (a save or delete records what it was). */
    async lockName(tx: Tx, id: number): Promise<string | undefined> {
      return (await Campaigns.findByPk(id, { attributes: ['name'], transaction: tx.transaction, lock: true }))?.name;
    },

    /** The campaign's name and status, its row locked until the transaction ends. */
    async lockStatus(tx: Tx, id: number): Promise<{ name: string; status: CampaignRow['status'] } | undefined> {
      const row = await Campaigns.findByPk(id, { attributes: ['name', 'status'], transaction: tx.transaction, lock: true });
      return row ? { name: row.name, status: row.status } : undefined;
    },

    /** A SENDING campaign becomes ERROR with `reason`, any daily-quota pause dropped (the caller holds its row lock). */
    async markStopped(tx: Tx, id: number, reason: string): Promise<void> {
      await Campaigns.update(
        { status: 'ERROR', errorMessage: reason, quotaPausedUntil: null, pausedFor: null },
        { where: { id, status: 'SENDING' }, transaction: tx.transaction },
      );
    },

    /**
     * Saves the name, and the draft fields when given, which only a DRAFT takes: false when there
     * is no such campaign, or it is not a draft and draft fields were given.
     */
    async update(tx: Tx, id: number, name: string, fields: CampaignDraftFields, updatedByEmail: string | null): Promise<boolean> {
      const draftOnly = Object.keys(fields).length > 0;
      // A scheduled campaign is not even renamed: it is frozen until its schedule is cancelled.
      const where = draftOnly ? { id, status: 'DRAFT' } : { id, status: { [Op.ne]: 'SCHEDULED' } };
      const [count] = await Campaigns.update({ name, ...fields, updatedByEmail }, { where, transaction: tx.transaction });
      return count === 1;
    },

    /** The segment a campaign targets (a follow-up's, written for it). */
    async setSegment(tx: Tx, id: number, segmentId: number): Promise<void> {
      await Campaigns.update({ segmentId }, { where: { id }, transaction: tx.transaction });
    },

    /** A new DRAFT with the content of `id` (not its sending, report or snapshot). */
    async replicate(tx: Tx, id: number, name: string, updatedByEmail: string | null): Promise<number | undefined> {
      const source = await Campaigns.findByPk(id, { transaction: tx.transaction });
      if (!source) return undefined;
      const copy = await Campaigns.create(
        {
          name,
          audienceId: source.audienceId,
          templateId: source.templateId,
          fromName: source.fromName,
          fromEmail: source.fromEmail,
          subject: source.subject,
          previewText: source.previewText,
          // The segment itself, not the rule it was sent with: the copy is a new draft (null once it is deleted).
          segmentId: source.segmentId,
          updatedByEmail,
        },
        { transaction: tx.transaction },
      );
      return copy.id;
    },

    /** Deletes a campaign that is neither SENDING nor SCHEDULED (its jobs, links and events go with it); false otherwise. */
    async destroyUnlessBusy(tx: Tx, id: number): Promise<boolean> {
      return (
        (await Campaigns.destroy({ where: { id, status: { [Op.notIn]: ['SENDING', 'SCHEDULED'] } }, transaction: tx.transaction })) === 1
      );
    },

    async findTemplate(id: number): Promise<CampaignTemplateContent | undefined> {
      const row = await Templates.findByPk(id, { attributes: ['id', 'name', 'html', 'plainText'] });
      return row ? { id: row.id, name: row.name, html: row.html, plainText: row.plainText } : undefined;
    },

    /** An audience that is not deleted. */
    async findAudience(id: number): Promise<LiveAudience | undefined> {
      const row = await Audiences.findOne({ where: { id, deletedAt: null }, attributes: ['id', 'name', 'headers', 'isImporting'] });
      return row ? { id: row.id, name: row.name, headers: row.headers, isImporting: row.isImporting } : undefined;
    },

    async findContact(id: number): Promise<MergeContactRow | undefined> {
      const row = await Contacts.findByPk(id, {
        attributes: ['id', 'email', 'data', 'audienceId'],
        include: [{ model: Audiences, as: 'audience', attributes: ['id'], where: { deletedAt: null } }],
      });
      if (!(row as (typeof row & { audience?: AudienceRow }) | null)?.audience) return undefined;
      return { id: row!.id, email: row!.email, data: row!.data, fields: await audienceMergeFields(db, row!.audienceId) };
    },

    /** The merge fields (keys and types) of a live audience. */
    mergeFields: (audienceId: number): Promise<MergeFieldRow[]> => audienceMergeFields(db, audienceId),

    /** The audience's first valid contact, in file order. */
    async firstValidContact(audienceId: number): Promise<{ email: string; data: Record<string, FieldValue> } | undefined> {
      const row = await Contacts.findOne({ where: { audienceId, validSeq: 1 }, attributes: ['email', 'data'] });
      return row ? { email: row.email, data: row.data } : undefined;
    },

    /**
     * The valid contacts, in file order, lacking a value for one of `tags` (an empty cell, or a tag
     * the audience has no header for), with those tags; at most `limit`.
     */
    async contactsMissingFields(
      audienceId: number,
      tags: TagKey[],
      limit: number,
      followUpId?: number,
      segment?: CheckedRule,
    ): Promise<ValidationResult[]> {
      if (tags.length === 0) return [];
      const params: unknown[] = [
        audienceId,
        tags.map((t) => t.tag),
        tags.map((t) => t.key),
        limit,
        ...(followUpId === undefined ? [] : [followUpId]),
      ];
      // A segment's contacts only (issue 26), as its send would choose them.
      const compiled = segment && compileRule(segment, '$1', params.length + 1);
      if (compiled) params.push(...compiled.params);
      const inSegment = compiled ? `AND c.error_message IS NULL AND c.unsubscribed_at IS NULL AND (${compiled.sql})` : '';
      const missing = `ARRAY(SELECT tag.name FROM tag WHERE tag.key IS NULL OR coalesce(c.data ->> tag.key, '') = '' ORDER BY tag.n)
                  AS "missingFields"`;
      const lacks = `EXISTS (SELECT 1 FROM tag WHERE tag.key IS NULL OR coalesce(c.data ->> tag.key, '') = '')`;
      const { rows } = await db.transaction(async (tx) => {
        if (compiled) await tx.query(STATEMENT_SETTINGS);
        return tx.query<ValidationResult>(
          // A follow-up's recipients (contacts of the audience, in the original's job order) instead of the audience's.
          followUpId === undefined
            ? `WITH tag AS (SELECT * FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(name, key, n))
             SELECT c.id AS "contactId", c.email, ${missing}
               FROM contacts c
              WHERE c.audience_id = $1 AND c.valid_seq IS NOT NULL AND ${lacks} ${inSegment}
              ORDER BY c.valid_seq
              LIMIT $4`
            : `WITH tag AS (SELECT * FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(name, key, n))
             SELECT c.id AS "contactId", c.email, ${missing}
               FROM follow_up_recipients r JOIN contacts c ON c.id = r.contact_id
              WHERE r.campaign_id = $5 AND c.audience_id = $1 AND c.valid_seq IS NOT NULL AND ${lacks} ${inSegment}
              ORDER BY r.seq
              LIMIT $4`,
          params,
        );
      });
      return rows;
    },
  };
}

export type CampaignRepository = ReturnType<typeof campaignRepository>;
