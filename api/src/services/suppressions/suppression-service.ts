/**
 * Suppressions people can see and change (an addition to the spec). The rules: a member's additions
 * are read as CSV the way an import is (csv.ts) and checked with the import's address rule; every line
 * not added is reported. A removal takes the suppression off and records it; a complaint's and an
 * unsubscribe's need the member's second confirmation, each its own (the person said they did not
 * want the mail: the member confirms why mailing them again is lawful). Each change is one transaction, so a record of it (the activity
 * log) can be written in the same one.
 */
import type { SuppressionAddResult } from '@mailroom/api-client';
import { Readable } from 'node:stream';
import type { Database } from '../../db/database.js';
import { csvRecords, ImportFileError, isBlankRecord, type ImportLimits } from '../imports/csv.js';
import { INVALID_EMAIL, isValidEmail, MISSING_EMAIL } from '../contacts/email.js';
import { recordActivity, type ActivityService, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { createSearchCache } from '../search-index.js';
import { suppressionRepository, type SuppressionListPage, type SuppressionListQuery } from './repository.js';

/** How many invalid lines an answer lists (all are counted). */
export const MAX_REPORTED_LINES = 1000;
export const COMPLAINT_NEEDS_CONFIRMATION =
  'This address complained about your mail. Confirm again to remove it: mailing it again can harm your sending reputation.';
/** An erased person may be mailed again only with their fresh consent (the sign-up issue), never by a member's removal. */
export const ERASED_STAYS =
  'This person asked for their data to be erased: only a hash of the address is kept, so that it is never mailed again. It can be mailed again only when the person gives their consent afresh.';
export const UNSUBSCRIBE_NEEDS_CONFIRMATION =
  'This person unsubscribed: they asked not to receive your mail. Remove the address only if they have since asked to receive it again, and confirm that they did.';

/** The second confirmations a removal carries: each reason that needs one takes only its own. */
export interface RemovalConfirmations {
  complaint: boolean;
  unsubscribe: boolean;
}

export interface SuppressionServiceDeps {
  db: Database;
  /** The activity log, for the export (a download changes nothing, so it records on its own). */
  activityLog: Pick<ActivityService, 'record'>;
  /** The import's limits (a line's length, its columns) apply to a pasted list too. */
  limits: ImportLimits;
}

/** The text's addresses: the column named email (any case), else the first; blank lines skipped. */
export async function readAddresses(text: string, limits: ImportLimits) {
  const emails: string[] = [];
  const invalid: SuppressionAddResult['invalid'] = [];
  let invalidLines = 0;
  let column: number | undefined;
  const reject = (line: number, value: string, message: string) => {
    invalidLines++;
    if (invalid.length < MAX_REPORTED_LINES) invalid.push({ line, value: value.slice(0, 320), message });
  };
  for await (const batch of csvRecords(Readable.from([Buffer.from(text, 'utf8')]), limits)) {
    batch.records.forEach((record, i) => {
      const line = batch.firstRecord + i;
      if (isBlankRecord(record)) return;
      if (column === undefined) {
        const named = record.findIndex((field) => field.trim().toLowerCase() === 'email');
        column = Math.max(named, 0);
        if (named >= 0) return;
      }
      const value = (record[column] ?? '').trim();
      if (value === '') reject(line, record.join(','), MISSING_EMAIL);
      else if (!isValidEmail(value)) reject(line, value, INVALID_EMAIL);
      // As typed: the database folds it (address_key), as it does every address it compares.
      else emails.push(value);
    });
  }
  return { emails, invalid, invalidLines };
}

export function createSuppressionService({ db, activityLog, limits }: SuppressionServiceDeps) {
  const repo = suppressionRepository(db);
  /** The indexes of recent address searches (search-index.ts), for their next pages. */
  const searches = createSearchCache();

  return {
    list(query: SuppressionListQuery): Promise<SuppressionListPage> {
      return repo.page(query, searches);
    },

    async add(text: string, actor: Actor): Promise<SuppressionAddResult> {
      let read: Awaited<ReturnType<typeof readAddresses>>;
      try {
        read = await readAddresses(text, limits);
      } catch (error) {
        if (error instanceof ImportFileError) throw new DomainError('invalid', error.message);
        throw error;
      }
      const added = await db.transaction(async (tx) => {
        const count = await repo.addByMember(tx, read.emails, actor.email);
        // Nothing added, nothing changed: no entry (addresses already suppressed keep their reason).
        if (count > 0)
          await recordActivity(tx, { actor, kind: 'suppression-add', object: { type: 'suppression' }, details: { added: count } });
        return count;
      });
      return { added, alreadySuppressed: read.emails.length - added, invalidLines: read.invalidLines, invalid: read.invalid };
    },

    async remove(id: number, actor: Actor, confirmed: RemovalConfirmations): Promise<void> {
      await db.transaction(async (tx) => {
        const suppression = await repo.lockForRemoval(tx, id);
        if (!suppression) throw new DomainError('not-found', 'This address is not suppressed (any more).');
        if (suppression.reason === 'ERASED') throw new DomainError('conflict', ERASED_STAYS);
        if (suppression.reason === 'COMPLAINT' && !confirmed.complaint) throw new DomainError('conflict', COMPLAINT_NEEDS_CONFIRMATION);
        if (suppression.reason === 'UNSUBSCRIBE' && !confirmed.unsubscribe)
          throw new DomainError('conflict', UNSUBSCRIBE_NEEDS_CONFIRMATION);
        await repo.remove(
          tx,
          {
            id: Number(suppression.id),
            emailLower: suppression.emailLower,
            reason: suppression.reason,
            campaignId: suppression.campaignId === null ? null : Number(suppression.campaignId),
            createdAt: suppression.createdAt,
          },
          actor.email,
        );
        await recordActivity(tx, {
          actor,
          kind: 'suppression-remove',
          object: { type: 'suppression', name: suppression.emailLower },
          details: { reason: suppression.reason },
        });
      });
    },

    /** The list as CSV; the download is recorded before the rows are read, as the contacts export does. */
    async exportCsv(query: Pick<SuppressionListQuery, 'email' | 'reason'>, actor: Actor) {
      await activityLog.record({ actor, kind: 'export', object: { type: 'suppression' }, details: { what: 'suppressions', ...query } });
      return repo.exportCsv(query);
    },
  };
}

export type SuppressionService = ReturnType<typeof createSuppressionService>;
