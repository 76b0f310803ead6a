/**
 * Segments (issue 26; docs/decisions/segments.md): saved, named rules over one audience's contacts, counted as
 * the member edits them and sent to by campaigns. The rules of the calls: a rule is checked against the
 * audience (rule.ts) before anything is stored or counted; names are unique in an audience without regard to
 * case (409); a segment that a campaign not sent yet targets is not deleted (409 naming them); every change is
 * recorded in the activity log under the audience. No HTTP, AMQP or SQL here.
 */
import type { Contact } from '@mailroom/api-client';
import type { Database, Tx } from '../../db/database.js';
import { audienceObject, recordActivity, type Actor } from '../activity/activity-service.js';
import { AUDIENCE_NOT_FOUND } from '../audiences/audience-service.js';
import { DomainError } from '../errors.js';
import { segmentRepository, type Segment } from './repository.js';
import { checkRule, type CheckedRule, type SegmentRule } from './rule.js';

export type { Segment };

export const SEGMENT_NOT_FOUND = 'Segment not found';
/** The contract's bound of a name (EntityName). */
const SEGMENT_NAME_MAX = 200;
/** How many names a segment written for the member tries ('name', 'name (2)'...) before giving up. */
const WRITTEN_NAMES = 100;
export const NAME_REQUIRED = 'Fill the segment name';
export const duplicateNameMessage = (name: string) => `The audience already has a segment named “${name}”.`;
export const targetedMessage = (campaigns: { name: string }[]) =>
  `The segment is the target of ${campaigns.length === 1 ? 'the campaign' : `${campaigns.length} campaigns not sent yet:`} ${campaigns
    .slice(0, 10)
    .map((campaign) => `“${campaign.name}”`)
    .join(', ')}${campaigns.length > 10 ? ' and more' : ''}; choose another audience or segment for ${
    campaigns.length === 1 ? 'it' : 'them'
  } first.`;

export interface SegmentInput {
  name: string;
  rule: SegmentRule;
}

export interface SegmentServiceDeps {
  db: Database;
}

/** A rule as text with its keys in order: jsonb keeps keys in its own order, so a stored rule reads back reordered. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
const sameRule = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

const validName = (name: unknown): string => {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) throw new DomainError('invalid', NAME_REQUIRED);
  return trimmed;
};

export function createSegmentService({ db }: SegmentServiceDeps) {
  const repo = segmentRepository(db);

  /** The rule read for the audience, or 400 naming the condition refused. */
  const checked = async (audienceId: number, rule: unknown, tx?: Tx): Promise<CheckedRule> =>
    checkRule(rule, await repo.ruleContext(audienceId, tx));

  const liveAudience = async (audienceId: number, tx?: Tx): Promise<void> => {
    if (!(await repo.audienceExists(audienceId, tx))) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
  };

  const segmentOrThrow = async (id: number, tx?: Tx): Promise<Segment> => {
    const segment = await repo.find(id, tx);
    if (!segment) throw new DomainError('not-found', SEGMENT_NOT_FOUND);
    return segment;
  };

  return {
    async list(audienceId: number): Promise<{ items: Segment[] }> {
      await liveAudience(audienceId);
      return { items: await repo.list(audienceId) };
    },

    get: (id: number): Promise<Segment> => segmentOrThrow(id),

    async create(audienceId: number, input: SegmentInput, actor: Actor): Promise<Segment> {
      const name = validName(input.name);
      return db.transaction(async (tx) => {
        await liveAudience(audienceId, tx);
        await checked(audienceId, input.rule, tx);
        const segment = await repo.insert(tx, { audienceId, name, rule: input.rule, email: actor.email });
        if (segment === 'duplicate') throw new DomainError('conflict', duplicateNameMessage(name));
        await recordActivity(tx, {
          actor,
          kind: 'segment-create',
          object: await audienceObject(tx, audienceId),
          details: { segmentId: segment.id, name },
        });
        return segment;
      });
    },

    /** A new name or rule; campaigns already sent keep the rule they were sent with (their snapshot). */
    async update(id: number, input: SegmentInput, actor: Actor): Promise<Segment> {
      const name = validName(input.name);
      await db.transaction(async (tx) => {
        const before = await repo.lock(tx, id);
        if (!before) throw new DomainError('not-found', SEGMENT_NOT_FOUND);
        await checked(before.audienceId, input.rule, tx);
        if ((await repo.update(tx, id, { name, rule: input.rule, email: actor.email })) === 'duplicate')
          throw new DomainError('conflict', duplicateNameMessage(name));
        const changed = [...(before.name !== name ? ['name'] : []), ...(!sameRule(before.rule, input.rule) ? ['rule'] : [])];
        if (changed.length > 0)
          await recordActivity(tx, {
            actor,
            kind: 'segment-change',
            object: await audienceObject(tx, before.audienceId),
            details: { segmentId: id, name, changed, ...(before.name !== name ? { from: before.name } : {}) },
          });
      });
      return segmentOrThrow(id);
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const segment = await repo.lock(tx, id);
        if (!segment) throw new DomainError('not-found', SEGMENT_NOT_FOUND);
        // A campaign choosing the segment locks it too (campaign-service), so none can slip in after this read.
        const pending = await repo.pendingCampaigns(tx, id);
        if (pending.length > 0) throw new DomainError('conflict', targetedMessage(pending));
        await repo.destroy(tx, id);
        await recordActivity(tx, {
          actor,
          kind: 'segment-delete',
          object: await audienceObject(tx, segment.audienceId),
          details: { segmentId: id, name: segment.name },
        });
      });
    },

    /** How many contacts a send to `rule` would reach now, and up to ten of them when asked. */
    async count(audienceId: number, rule: unknown, sample: boolean): Promise<{ count: number; sample?: Contact[] }> {
      await liveAudience(audienceId);
      return repo.count(audienceId, await checked(audienceId, rule), sample);
    },

    /**
     * The segment a member would have written for `rule`, written for them in `tx` (a follow-up's recipients,
     * issue 26): the audience's segment of that name when its rule is the same, else a new one under the first free
     * name of `name`, `name (2)`, `name (3)`... The caller's activity entry names it: one action, one entry.
     */
    async writeFor(tx: Tx, audienceId: number, name: string, rule: SegmentRule, actor: Pick<Actor, 'email'>): Promise<Segment> {
      checkRule(rule, await repo.ruleContext(audienceId, tx));
      for (let n = 1; n <= WRITTEN_NAMES; n++) {
        const suffix = n === 1 ? '' : ` (${n})`;
        const candidate = `${name.slice(0, SEGMENT_NAME_MAX - suffix.length)}${suffix}`;
        const same = await repo.findByName(tx, audienceId, candidate);
        if (same && sameRule(same.rule, rule)) return same;
        if (same) continue;
        const segment = await repo.insert(tx, { audienceId, name: candidate, rule, email: actor.email });
        // Made by another request since the read: the failed insert ended this transaction's use, so say so.
        if (segment === 'duplicate') throw new DomainError('conflict', duplicateNameMessage(candidate));
        return segment;
      }
      throw new DomainError('conflict', duplicateNameMessage(name));
    },

    /** A campaign's segment rule read for its audience (a sent campaign's as it was sent). */
    async ruleOf(rule: SegmentRule, audienceId: number): Promise<CheckedRule> {
      return checkRule(rule, { ...(await repo.ruleContext(audienceId)), mode: 'as-sent' });
    },

    /** The rule of a segment of `audienceId` read for counting or sending, its row locked by `tx` (kept until it ends). */
    async targetOf(tx: Tx, segmentId: number, audienceId: number): Promise<{ segment: Segment; rule: CheckedRule }> {
      const segment = await repo.lock(tx, segmentId, 'share');
      if (!segment || segment.audienceId !== audienceId) throw new DomainError('invalid', SEGMENT_NOT_IN_AUDIENCE);
      return { segment, rule: await checked(audienceId, segment.rule, tx) };
    },
  };
}

export const SEGMENT_NOT_IN_AUDIENCE = "The segment is not one of the campaign's audience's segments.";

export type SegmentService = ReturnType<typeof createSegmentService>;
