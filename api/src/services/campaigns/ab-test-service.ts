/**
 * A/B tests (issue 28; docs/decisions/ab-tests.md): a draft campaign's two to four variants of subject,
 * preview text, sender name or template; at send its test share is split evenly at random among them
 * (the dispatch freezes it with the jobs); after the wait the winner, judged on people's opens or clicks
 * only (ab-test-verdict.ts), goes to the rest automatically, or a member picks it earlier. Either way the
 * decision and the rest's jobs are one dispatch (services/sending/producer.ts), so the rest is sent once.
 */
import type { Schemas } from '@mailroom/api-client';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import type { SendingService } from '../sending/sending-service.js';
import { abTestRepository, type AbTestInput, type AbTestRow } from './ab-test-repository.js';
import { judge } from './ab-test-verdict.js';
import { campaignRepository } from './repository.js';
import { CAMPAIGN_NOT_FOUND, noNul, oneLine, statusConflict, TEMPLATE_NOT_FOUND } from './rules.js';

export type AbTest = NonNullable<Schemas['AbTest']>;

export const ONLY_DRAFTS_TESTED = 'Only a draft campaign can get or change an A/B test.';
export const NOT_TESTING = 'The A/B test is not in its test phase: it was not sent yet, or its winner was already chosen.';
export const ONLY_SENDING_DECIDED = 'The winner goes to the rest only while the campaign is sending; continue it first.';
export const DEFAULT_VARIANT_MISSING = 'The default variant must be one of the variants.';
export const VARIANT_CHANGES_NOTHING = (n: number) =>
  `Variant ${String.fromCharCode(65 + n)} changes nothing: give it a subject, preview text, sender name or template.`;
export const VARIANTS_SAME = 'Two variants are the same: each must differ.';
export const NO_SUCH_VARIANT = 'The test has no such variant.';
export const NO_AB_TEST_TO_SHOW = 'The campaign has no A/B test.';
export const NO_AB_TEST = 'The campaign has no A/B test: send the test mail without a variant.';
export const VARIANT_WITHOUT_CAMPAIGN = 'A variant belongs to a campaign: give the campaign with it.';

/** A variant's letter as the screens show it: A, B, C, D. */
export const variantLetter = (position: number): string => String.fromCharCode(65 + position);

export interface AbTestServiceDeps {
  db: Database;
  sending: Pick<SendingService, 'dispatch'>;
  logger: Logger;
  /** The split's seed, drawn when a test is first made (tests give their own). */
  seed?: () => number;
}

/** A new test's seed for its split (a made test, or a copy's). */
export const drawSeed = (): number => Math.floor(Math.random() * 2_147_483_647);

export function createAbTestService({ db, sending, logger, seed = drawSeed }: AbTestServiceDeps) {
  const repo = abTestRepository(db);
  const campaigns = campaignRepository(db);

  const phaseOf = (row: AbTestRow): AbTest['phase'] => (row.winner !== null ? 'DECIDED' : row.startedAt !== null ? 'TESTING' : 'DRAFT');

  const view = async (campaignId: number, row: AbTestRow): Promise<AbTest> => {
    const figures = await repo.figures(campaignId, row.variants.length);
    const started = row.startedAt !== null;
    const { winner: _, ...current } = judge(figures, row.measure, row.defaultVariant);
    return {
      testShare: row.testShare,
      waitHours: row.waitHours,
      measure: row.measure,
      defaultVariant: row.defaultVariant,
      variants: row.variants,
      phase: phaseOf(row),
      startedAt: row.startedAt?.toISOString() ?? null,
      endsAt: row.endsAt?.toISOString() ?? null,
      winner: row.winner,
      decidedAt: row.decidedAt?.toISOString() ?? null,
      decidedBy: row.decidedBy,
      verdict: row.verdict,
      figures,
      current: started ? current : null,
    };
  };

  const get = async (campaignId: number): Promise<{ data: AbTest | null }> => {
    const row = await repo.find(campaignId);
    if (!row) {
      if (!(await campaigns.find(campaignId))) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
      return { data: null };
    }
    return { data: await view(campaignId, row) };
  };

  /** Each variant changes something, no two are the same, the default is one of them, templates exist. */
  const check = async (input: AbTestInput): Promise<void> => {
    if (input.defaultVariant >= input.variants.length) throw new DomainError('invalid', DEFAULT_VARIANT_MISSING);
    const seen = new Set<string>();
    for (const [n, variant] of input.variants.entries()) {
      noNul(variant.subject, variant.previewText, variant.fromName);
      oneLine('subject', variant.subject);
      oneLine('sender name', variant.fromName);
      oneLine('preview text', variant.previewText);
      const key = JSON.stringify([
        variant.subject ?? null,
        variant.previewText ?? null,
        variant.fromName ?? null,
        variant.templateId ?? null,
      ]);
      if (key === JSON.stringify([null, null, null, null])) throw new DomainError('invalid', VARIANT_CHANGES_NOTHING(n));
      if (seen.has(key)) throw new DomainError('invalid', VARIANTS_SAME);
      seen.add(key);
    }
    const templates = input.variants.flatMap((v) => (v.templateId == null ? [] : [v.templateId]));
    if ((await repo.missingTemplates(templates)).length > 0) throw new DomainError('not-found', TEMPLATE_NOT_FOUND);
  };

  /**
   * Sends the winner to the rest: the decision and the rest's jobs in one dispatch, from SENDING only
   * (a stopped campaign decides once continued). A test decided meanwhile is a conflict.
   */
  const sendWinner = async (
    campaignId: number,
    decision: { winner: number; decidedBy: 'AUTOMATIC' | 'MEMBER'; verdict: unknown },
    actor?: Actor,
  ): Promise<number> => {
    const { queued } = await sending.dispatch(campaignId, {
      from: ['SENDING'],
      conflict: ONLY_SENDING_DECIDED,
      newJobs: { contacts: 'all' },
      abTestDecision: decision,
      ...(actor ? { activity: { actor, kind: 'ab-test-winner' as const, details: { variant: decision.winner } } } : {}),
    });
    logger.info({ campaignId, winner: decision.winner, decidedBy: decision.decidedBy, jobs: queued }, 'A/B test winner sent to the rest');
    return queued;
  };

  return {
    get,

    async save(campaignId: number, input: AbTestInput): Promise<{ data: AbTest | null }> {
      await check(input);
      await db.transaction(async (tx) => {
        const current = await campaigns.lockStatus(tx, campaignId);
        if (current?.status !== 'DRAFT') throw statusConflict(current?.status, ONLY_DRAFTS_TESTED);
        await repo.save(tx, campaignId, input, seed());
      });
      return get(campaignId);
    },

    async remove(campaignId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const current = await campaigns.lockStatus(tx, campaignId);
        if (current?.status !== 'DRAFT') throw statusConflict(current?.status, ONLY_DRAFTS_TESTED);
        await repo.remove(tx, campaignId);
      });
    },

    /** One variant's click map: its mail's html and links, with its recipients' clicks only. */
    async variantClicks(campaignId: number, variant: number): Promise<Schemas['AbTestVariantClicks']> {
      const found = await repo.variantClicks(campaignId, variant);
      if (found) return found;
      if (!(await campaigns.find(campaignId))) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
      throw new DomainError('not-found', (await repo.find(campaignId)) ? NO_SUCH_VARIANT : NO_AB_TEST_TO_SHOW);
    },

    /** A member picks the winner before the wait ends; the rest is sent it at once. */
    async pickWinner(campaignId: number, variant: number, actor: Actor): Promise<{ data: AbTest | null }> {
      const row = await repo.find(campaignId);
      if (!row) {
        if (!(await campaigns.find(campaignId))) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        throw new DomainError('conflict', NOT_TESTING);
      }
      if (variant >= row.variants.length) throw new DomainError('invalid', NO_SUCH_VARIANT);
      if (phaseOf(row) !== 'TESTING') throw new DomainError('conflict', NOT_TESTING);
      const figures = await repo.figures(campaignId, row.variants.length);
      const { confidence, leader } = judge(figures, row.measure, row.defaultVariant);
      await sendWinner(
        campaignId,
        { winner: variant, decidedBy: 'MEMBER', verdict: { rule: 'MEMBER', confidence, leader, figures } },
        actor,
      );
      return get(campaignId);
    },

    /**
     * The periodic decision (workers/campaigns.ts): every test whose wait is over is judged on its figures
     * now and its winner sent to the rest. A worker that dies mid-way leaves the test undecided (the decision
     * and the jobs are one transaction), and the next run decides it; two workers deciding at once send
     * once (the second's dispatch is a conflict). Answers how many tests it decided.
     */
    async decideDue(): Promise<number> {
      let decided = 0;
      for (const campaignId of await repo.dueCampaignIds()) {
        const row = await repo.find(campaignId);
        if (!row || phaseOf(row) !== 'TESTING') continue;
        const { winner, ...verdict } = judge(await repo.figures(campaignId, row.variants.length), row.measure, row.defaultVariant);
        try {
          await sendWinner(campaignId, { winner, decidedBy: 'AUTOMATIC', verdict });
          decided++;
        } catch (error) {
          // Decided by another worker or a member meanwhile, or stopped: nothing to do.
          if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
        }
      }
      return decided;
    },
  };
}

export type AbTestService = ReturnType<typeof createAbTestService>;
