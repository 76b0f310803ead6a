/**
 * One person across audiences (issue 24; docs/decisions/people.md): what is held about an address
 * (search), all of it as one document (access, GDPR article 15), and its erasure (article 17). The
 * address is folded by the database (address_key), never here; the reads are index probes
 * (repository.ts), the erasure one transaction (erasure-repository.ts).
 */
import type { Person, PersonErasure, PersonExport } from '@mailroom/api-client';
import type { Database } from '../../db/database.js';
import { recordActivity, type ActivityService, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { erase, MailBeingSent, waitForLocksAtMost } from './erasure-repository.js';
import { consentOf, exportParts, keysOf, personOf } from './repository.js';

export const ADDRESS_MISSING = 'Type the address to look for.';
export const MAIL_BEING_SENT =
  'A mail to this address is being handed to Amazon SES right now, so nothing was erased. Erase it again in a minute: the mail will be sent by then.';
export const ERASURE_BUSY =
  'Another change to this address’s audiences or campaigns is under way, so nothing was erased. Erase it again in a minute.';

/** How long an erasure waits for a lock (a send's dispatch, an import) before it answers ERASURE_BUSY. */
const LOCK_TIMEOUT_MS = 10_000;
/** Attempts of an erasure that PostgreSQL broke off as one side of a deadlock with a send. */
const ATTEMPTS = 3;

export interface PeopleServiceDeps {
  db: Database;
  /** The activity log, for the export (a download changes nothing, so it records on its own). */
  activityLog: Pick<ActivityService, 'record'>;
}

/** The address as typed, spaces around it dropped; an empty one is refused. */
function typed(address: string): string {
  const trimmed = address.trim();
  if (trimmed === '') throw new DomainError('invalid', ADDRESS_MISSING);
  return trimmed;
}

const sqlState = (error: unknown) => (error as { code?: unknown } | null)?.code;

export function createPeopleService({ db, activityLog }: PeopleServiceDeps) {
  return {
    /** What is held about the address: one statement, so one snapshot. */
    async find(address: string): Promise<Person> {
      const { key } = await keysOf(db, typed(address));
      const person = await personOf(db, key);
      return { ...person, consent: consentOf(person.audiences) };
    },

    /**
     * Everything held about the address, as the organisation hands it to the person. Recorded before the
     * rows are read, as every export is, naming the address (an erasure later names its key instead).
     */
    async export(address: string, actor: Actor): Promise<PersonExport> {
      const email = typed(address);
      const { key } = await keysOf(db, email);
      await activityLog.record({ actor, kind: 'export', object: { type: 'person', name: key }, details: { what: 'person' } });
      return db.transaction(
        async (tx) => {
          const part = exportParts(tx, key);
          const audiences = await part.audiences();
          return {
            exportedAt: new Date().toISOString(),
            email: key,
            erasedAt: await part.erasedAt(),
            audiences,
            mails: await part.mails(),
            hits: await part.hits(),
            suppression: await part.suppression(),
            suppressionRemovals: await part.removals(),
            consent: consentOf(audiences),
            activity: await part.activity(),
          };
        },
        { isolation: 'REPEATABLE READ', readOnly: true },
      );
    },

    /**
     * Erases the address in one transaction (erasure-repository.ts) and records it under the erased key. Refused,
     * with nothing changed, while a worker is handing one of its mails to SES; tried again when
     * PostgreSQL breaks it off as one side of a deadlock with a send.
     */
    async erase(address: string, actor: Actor): Promise<PersonErasure> {
      const email = typed(address);
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction(async (tx) => {
            await waitForLocksAtMost(tx, LOCK_TIMEOUT_MS);
            const { key, erasedKey } = await keysOf(tx, email);
            const erased = await erase(tx, email, key, erasedKey, actor.email);
            const { erasedAt: at, ...counts } = erased;
            await recordActivity(tx, { actor, kind: 'erase', object: { type: 'person', name: erasedKey }, details: counts });
            return { erasedKey, erasedAt: at.toISOString(), ...counts };
          });
        } catch (error) {
          if (error instanceof MailBeingSent) throw new DomainError('conflict', MAIL_BEING_SENT);
          if (sqlState(error) === '55P03') throw new DomainError('conflict', ERASURE_BUSY, { cause: error });
          if (sqlState(error) !== '40P01' || attempt === ATTEMPTS) throw error;
        }
      }
    },
  };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
