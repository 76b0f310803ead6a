/**
 * The activity log (an addition to the spec): who did what, when, to which object. No HTTP or SQL here.
 *
 * `recordActivity(tx, ...)` is the one way to write it: every service that changes or takes out data
 * calls it inside the transaction of that change, so a change that fails (and rolls back) leaves no
 * entry, and an entry always names a change that was made. The member comes from the verified token,
 * handed down from the router as the `Actor`; never from the request body.
 *
 * The log is append-only for the product: nothing here updates or deletes an entry, and the table
 * refuses an UPDATE (migration 0014). Only the worker's retention sweep removes entries, those older
 * than ACTIVITY_RETENTION_DAYS.
 */
import type { Database, Sql } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import {
  activityRepository,
  audienceObject,
  insertActivity,
  recordedLately,
  type ActivityCursor,
  type ActivityEntry,
  type ActivityFilters,
  type ActivityKind,
  type ActivityObjectType,
} from './repository.js';

export type { ActivityCursor, ActivityEntry, ActivityFilters, ActivityKind, ActivityObjectType };
export { audienceObject };

/** The signed-in member who acts (the verified token's e-mail). */
export interface Actor {
  email: string;
}

/** One action to record. */
export interface ActivityInput {
  actor: Actor;
  kind: ActivityKind;
  object: { type: ActivityObjectType; id?: number | null; name?: string | null };
  /** A few facts of the action (stored as jsonb, at most 2,000 bytes): counts, a former name, filters. Never contact data. */
  details?: Record<string, unknown>;
}

/** Names and other strings in the details are cut to this many characters (a name is at most 200). */
const DETAIL_TEXT_MAX = 200;
/** Entries removed per statement by the retention sweep: each batch is a short statement. */
const SWEEP_BATCH = 10_000;

/**
 * A member's content saves of one object within this many seconds are one `edit` entry: the template
 * editor saves by itself 30 s after each change, and an hour of work would otherwise fill the log with
 * a hundred entries that say nothing more than the first.
 */
export const EDIT_COALESCE_SECONDS = 5 * 60;

const cut = (value: unknown): unknown =>
  typeof value === 'string' && value.length > DETAIL_TEXT_MAX ? `${value.slice(0, DETAIL_TEXT_MAX)}…` : value;

/**
 * Appends one entry on the transaction `tx` of the change it records (`db.transaction(tx => ...)`). A
 * download, which changes nothing, records in a transaction of its own when it starts.
 */
export async function recordActivity(tx: Sql, { actor, kind, object, details = {} }: ActivityInput): Promise<void> {
  await insertActivity(tx, {
    memberEmail: actor.email.trim().toLowerCase(),
    kind,
    objectType: object.type,
    objectId: object.id ?? null,
    objectName: object.name ?? null,
    details: Object.fromEntries(Object.entries(details).map(([key, value]) => [key, cut(value)])),
  });
}

/**
 * Records a content save as `edit`, unless the same member's save of the same object was recorded in
 * the last EDIT_COALESCE_SECONDS. Call it after locking the object's row in `tx`: saves of one object
 * then take turns, and the second sees the first's entry.
 */
export async function recordEdit(tx: Sql, input: Omit<ActivityInput, 'kind'>): Promise<void> {
  const memberEmail = input.actor.email.trim().toLowerCase();
  const row = { memberEmail, kind: 'edit' as const, objectType: input.object.type, objectId: input.object.id ?? null };
  if (await recordedLately(tx, row, EDIT_COALESCE_SECONDS)) return;
  await recordActivity(tx, { ...input, kind: 'edit' });
}

export interface ActivityServiceDeps {
  db: Database;
  retentionDays: number;
  logger: Logger;
}

export function createActivityService({ db, retentionDays, logger }: ActivityServiceDeps) {
  const repo = activityRepository(db);
  return {
    /** A page of the log, newest first (see repository.ts for the cursors). */
    async list(filters: ActivityFilters, cursor: ActivityCursor, limit: number, only?: { memberEmail: string }) {
      // A member below admin reads their own entries only (issue 27): the log of everyone is an admin's.
      if (only) return repo.page({ ...filters, member: undefined, members: [only.memberEmail.trim().toLowerCase()] }, cursor, limit);
      return repo.page({ ...filters, member: filters.member?.trim().toLowerCase() || undefined }, cursor, limit);
    },

    /** Records one action in a transaction of its own (downloads, test sends: nothing else is written). */
    async record(input: ActivityInput): Promise<void> {
      await db.transaction((tx) => recordActivity(tx, input));
    },

    /** The worker's retention sweep: entries older than the retention, in batches; answers how many went. */
    async sweep(): Promise<{ deleted: number }> {
      let deleted = 0;
      for (;;) {
        const batch = await repo.deleteOlderThan(retentionDays, SWEEP_BATCH);
        deleted += batch;
        if (batch < SWEEP_BATCH) break;
      }
      if (deleted > 0) logger.info({ deleted, retentionDays }, 'removed activity entries past the retention');
      return { deleted };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
