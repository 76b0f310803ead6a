/**
 * A sign-up, from the public form to the contact (issue 25; docs/decisions/sign-up.md):
 *  - the hosted page and the challenge of a form, by its slug;
 *  - `submit`: the body checked (submission.ts), the anti-abuse rules (a proof-of-work taken once, a
 *    honeypot, limits per client address and per subscribed address), then either the contact at once
 *    (a form without confirmation, for an address that did not unsubscribe) or a pending sign-up and its one
 *    confirmation mail, queued: the answer does not wait for SES;
 *  - `sendMail`: the worker sends a queued confirmation mail, at most once (claimed before SES is called);
 *  - `confirm`: the link's pending sign-up becomes a contact and the consent ledger records it; a person who had
 *    unsubscribed comes back to this audience alone;
 *  - `sweep`: pending sign-ups and used challenges past their expiry are removed, and queued mails whose
 *    message was lost are published again.
 * Whatever the address (new, pending, already a contact, over its mail limit), an accepted submission
 * gets the same answer: a form tells nobody who is on a list.
 */
import type { Database, Sql } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import { DomainError } from '../errors.js';
import { appendConsent } from '../consent/repository.js';
import type { SendingService } from '../sending/sending-service.js';
import type { SignupChallenges } from './challenge.js';
import { confirmationMail } from './confirmation-mail.js';
import type { ConfirmTokens } from './confirm-token.js';
import { formsRepository, type AudienceFieldRule, type FormRecord } from './forms-repository.js';
import { signupRepository, type AppendOutcome } from './signup-repository.js';
import { readSubmission, type FormFieldRule } from './submission.js';
import { windowCounter } from './limits.js';
import type { signupQueues } from './queues.js';

export const CHALLENGE_MISSING = 'The anti-robot check is missing: let the page finish its check, then send the form again.';
export const CHALLENGE_FAILED = 'The anti-robot check failed: reload the page and try again.';
export const CHALLENGE_EXPIRED = 'The anti-robot check expired: reload the page and try again.';
export const CHALLENGE_REPLAYED = 'This anti-robot check was already used: reload the page and try again.';
export const TOO_MANY_FROM_CLIENT = 'Too many sign-ups from your network: please try again in an hour.';
export const TOO_MANY_UNSOLVED = 'Too many sign-ups from your network without the anti-robot check: turn on JavaScript and try again.';
export const TOO_MANY_FOR_ADDRESS = 'Too many sign-ups for this address: please try again in an hour.';
export const WORDING_CHANGED = 'This form has changed since the page was opened: reload it, read it again and send it.';
export const AUDIENCE_BUSY = 'This list is being updated: please try again in a few minutes.';

/** Per client address and per subscribed address, an hour each. */
export const SUBMISSIONS_PER_CLIENT_PER_HOUR = 30;
export const SUBMISSIONS_PER_ADDRESS_PER_HOUR = 5;
/** Confirmation mails per address and audience: never more, whatever is submitted. */
export const MAILS_PER_HOUR = 1;
export const MAILS_PER_DAY = 3;
const HOUR_MS = 60 * 60_000;
/** A change of a form's allowed origins reaches cross-site calls within this. */
const ORIGINS_CACHE_MS = 30_000;
/** A confirmation mail still queued after this had its message lost: the sweep publishes it again. */
export const MAIL_REPUBLISH_AFTER_MS = 2 * 60_000;
/**
 * Suppressions a sign-up does not lift: the address is not mailed and no contact is made, whatever the form
 * (the submission is answered as any other). Only the person's own unsubscribe gives way to a confirmed sign-up.
 */
const STAYS_SUPPRESSED = new Set(['HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER', 'ERASED']);

export interface SignupClient {
  /** req.ip: TRUST_PROXY decides whose X-Forwarded-For names it. */
  address: string | undefined;
  /** What the per-client limits count: the address, an IPv6 one by its /56 (http/rate-limits.ts, clientKey). */
  key: string;
  userAgent: string | undefined;
  /** A JSON call (Accept: application/json): the proof-of-work is always required. */
  json: boolean;
}

export type SubmitResult = { kind: 'accepted'; form: FormRecord } | { kind: 'too-many'; message: string };

export type ConfirmResult =
  | { kind: 'ready'; formName: string }
  | { kind: 'confirmed'; formName: string }
  | { kind: 'used' }
  | { kind: 'expired' }
  | { kind: 'invalid' };

export interface SignupServiceDeps {
  db: Database;
  queue: MessageQueue<typeof signupQueues>;
  sending: Pick<SendingService, 'sendOne'>;
  challenges: SignupChallenges;
  tokens: ConfirmTokens;
  publicUrl: string;
  orgColor: string;
  configurationSet: string | undefined;
  settings: { linkDays: number; unsolvedPostsPerHour: number };
  logger: Logger;
}

export function createSignupService(deps: SignupServiceDeps) {
  const { db, queue, sending, challenges, tokens, settings, logger } = deps;
  const forms = formsRepository(db);
  const repo = signupRepository(db);
  const perClient = windowCounter(SUBMISSIONS_PER_CLIENT_PER_HOUR, HOUR_MS);
  const unsolvedPerClient = windowCounter(settings.unsolvedPostsPerHour, HOUR_MS);
  const perAddress = windowCounter(SUBMISSIONS_PER_ADDRESS_PER_HOUR, HOUR_MS);
  const linkMs = settings.linkDays * 24 * HOUR_MS;

  async function formBySlug(slug: string): Promise<{ form: FormRecord; fields: FormFieldRule[] }> {
    const form = await forms.bySlug(slug);
    if (!form) throw new DomainError('not-found', 'This sign-up form does not exist (any more).');
    const rules = new Map((await forms.audienceFields(form.audienceId)).map((rule) => [rule.key, rule]));
    // A field removed from the audience since the form was made is no longer asked.
    const fields = form.fields.flatMap((field) => {
      const rule = rules.get(field.key);
      return rule ? [{ ...field, rule }] : [];
    });
    return { form, fields };
  }

  /** The pending sign-up becomes a contact, or the contact that has the address stays; the ledger records either. */
  const unavailableUnlessAdded = (outcome: AppendOutcome) => {
    if (outcome === 'audience-importing') throw new DomainError('unavailable', AUDIENCE_BUSY);
    if (outcome === 'audience-gone') throw new DomainError('not-found', 'This list does not exist any more.');
  };

  /**
   * The confirmation mail goes to the worker. Not awaited: the sign-up is committed and the person is answered
   * now; a publish lost here (the broker away, the process stopping) leaves the mail 'queued', and the sweep
   * publishes it again.
   */
  function queueMail(mailId: number): void {
    queue.publish('signup-mail', { mailId }).catch((err: unknown) => {
      logger.warn({ err, mailId }, 'a confirmation mail could not be queued; the sweep will queue it again');
    });
  }

  /** The sites each form allows, remembered briefly: every cross-site call asks twice (preflight, then the call). */
  const originsCache = new Map<string, { origins: readonly string[]; until: number }>();

  return {
    /** The form and the fields its page shows. */
    page: formBySlug,

    /** The origins that may call the form from other sites (CORS); none for a form that does not exist. */
    async allowedOrigins(slug: string): Promise<readonly string[]> {
      const cached = originsCache.get(slug);
      if (cached && cached.until > Date.now()) return cached.origins;
      const origins = (await forms.bySlug(slug))?.allowedOrigins ?? [];
      if (originsCache.size > 10_000) originsCache.clear();
      originsCache.set(slug, { origins, until: Date.now() + ORIGINS_CACHE_MS });
      return origins;
    },

    async challenge(slug: string) {
      await formBySlug(slug);
      return challenges.create(slug);
    },

    async submit(slug: string, body: unknown, client: SignupClient): Promise<SubmitResult> {
      const { form, fields } = await formBySlug(slug);
      const clientId = client.key;
      if (!perClient.take(clientId)) return { kind: 'too-many', message: TOO_MANY_FROM_CLIENT };
      const submission = readSubmission(body, fields);

      let solved: { signature: string; expiresAt: Date } | undefined;
      if (submission.solution !== undefined) {
        const checked = await challenges.check(submission.solution, slug);
        if (!checked.ok) throw new DomainError('invalid', checked.reason === 'expired' ? CHALLENGE_EXPIRED : CHALLENGE_FAILED);
        solved = checked;
      } else if (client.json) {
        throw new DomainError('invalid', CHALLENGE_MISSING);
      } else if (!unsolvedPerClient.take(clientId)) {
        return { kind: 'too-many', message: TOO_MANY_UNSOLVED };
      }
      // A robot that filled the honeypot is told what a person is told, and nothing is kept.
      if (submission.robot) return { kind: 'accepted', form };
      if (!perAddress.take(`${form.audienceId}:${submission.email.toLowerCase()}`))
        return { kind: 'too-many', message: TOO_MANY_FOR_ADDRESS };
      // The solution is taken once whatever follows (else a replay's answer would tell which address came before),
      // within the transaction that stores the sign-up: one commit a sign-up, and none kept from a refused one.
      const takeChallenge = async (sql: Sql) => {
        if (solved && !(await repo.takeChallenge(solved.signature, solved.expiresAt, sql)))
          throw new DomainError('invalid', CHALLENGE_REPLAYED);
      };

      // The wording the person saw: the version the page or the pasted HTML sent, else the form's current one.
      const consentVersion = submission.consentVersion ?? form.consentVersion;
      if (consentVersion > form.consentVersion) throw new DomainError('invalid', WORDING_CHANGED);
      const wording = consentVersion === form.consentVersion ? form.consentWording : await forms.wording(db, form.id, consentVersion);
      if (wording === undefined) throw new DomainError('invalid', WORDING_CHANGED);

      const who = { clientAddress: client.address ?? null, userAgent: client.userAgent?.slice(0, 500) ?? null };
      const { suppressed, leftAudience } = await repo.addressState(form.audienceId, submission.email);
      // A hard bounce, a complaint, an erasure...: nothing is mailed and nothing kept; the answer is the same.
      if (suppressed !== null && STAYS_SUPPRESSED.has(suppressed)) {
        await takeChallenge(db);
        return { kind: 'accepted', form };
      }
      // A person who unsubscribed (from everything or from this audience) comes back only by the mail's link,
      // even through a form that asks no confirmation: nobody re-subscribes a stranger without it.
      const unsubscribed = suppressed === 'UNSUBSCRIBE' || leftAudience;
      if (!form.confirmationRequired && !unsubscribed) {
        await db.transaction(async (tx) => {
          await takeChallenge(tx);
          unavailableUnlessAdded(await repo.appendContact(tx, form.audienceId, submission.email, submission.data));
          await appendConsent(tx, {
            audienceId: form.audienceId,
            email: submission.email,
            event: 'SUBSCRIBED',
            formId: form.id,
            formName: form.name,
            consentVersion,
            wording,
            ...who,
          });
        });
        return { kind: 'accepted', form };
      }

      const expiresAt = new Date(Date.now() + linkMs);
      // Over the mail limits nothing new is kept or sent: the earlier mail's link still works.
      const queued = await db.transaction(async (tx) => {
        await takeChallenge(tx);
        return repo.insertPendingWithinLimits(
          tx,
          {
            formId: form.id,
            audienceId: form.audienceId,
            email: submission.email,
            data: submission.data,
            consentVersion,
            expiresAt,
            ...who,
          },
          { perHour: MAILS_PER_HOUR, perDay: MAILS_PER_DAY },
        );
      });
      if (queued) queueMail(queued.mailId);
      return { kind: 'accepted', form };
    },

    /**
     * Sends one queued confirmation mail (the worker, for each 'signup-mail' message). At most once to SES: the
     * row is claimed first, and an answer that does not say whether SES took the mail is recorded, never retried.
     * Throws when SES took no part of the call (throttled, quota used up, unreachable): the queue tries again later.
     */
    async sendMail(mailId: number): Promise<void> {
      const pending = await repo.claimMail(mailId);
      if (!pending) return; // sent, being sent, or its sign-up is gone: nothing to do
      if (pending.expiresAt.getTime() <= Date.now()) {
        await repo.mailOutcome(mailId, 'expired', null);
        return;
      }
      const form = await forms.byId(pending.formId);
      if (!form) {
        await repo.mailOutcome(mailId, 'form-gone', null);
        return;
      }
      const url = `${deps.publicUrl}/subscribe/confirm/${tokens.sign(pending.id, pending.expiresAt)}`;
      const input = confirmationMail(form, pending.email, url, {
        configurationSet: deps.configurationSet,
        pendingId: pending.id,
        color: deps.orgColor,
      });
      const outcome = await sending.sendOne(input);
      switch (outcome.kind) {
        case 'sent':
          await repo.mailOutcome(mailId, 'sent', outcome.messageId);
          return;
        case 'unknown':
          // SES may have taken it: sending again could mail the person twice.
          logger.warn({ mailId, reason: outcome.reason }, 'a confirmation mail may or may not have been sent; not sent again');
          await repo.mailOutcome(mailId, 'unknown', null);
          return;
        case 'rejected':
          // Refused for good (an address SES will not take): the sign-up can never be confirmed, so it goes.
          logger.warn({ mailId, pendingId: pending.id, reason: outcome.reason }, 'SES refused a confirmation mail; the sign-up is removed');
          await db.transaction(async (tx) => {
            await repo.removePending(tx, pending.id);
            await repo.mailOutcome(mailId, 'rejected', null, tx);
          });
          return;
        default:
          await repo.releaseMail(mailId);
          throw new Error(`confirmation mail ${mailId} not sent yet (${outcome.kind}: ${outcome.reason})`);
      }
    },

    /** Publishes again the confirmation mails whose message was lost (see staleQueuedMails). */
    async requeueMails(olderThanMs = MAIL_REPUBLISH_AFTER_MS): Promise<number> {
      const ids = await repo.staleQueuedMails(olderThanMs, 1000);
      for (const mailId of ids) await queue.publish('signup-mail', { mailId });
      if (ids.length > 0) logger.info({ mails: ids.length }, 'confirmation mails queued again');
      return ids.length;
    },

    /** What the link's page shows: never a change (link scanners follow GETs). */
    async confirmPage(token: string): Promise<ConfirmResult> {
      const read = tokens.read(token);
      if (read.kind !== 'valid') return { kind: read.kind };
      const pending = await db.transaction((tx) => repo.lockPending(tx, read.pendingId));
      if (!pending) return { kind: 'used' };
      const form = await forms.byId(pending.formId);
      return { kind: 'ready', formName: form?.name ?? '' };
    },

    async confirm(token: string, client: Omit<SignupClient, 'json' | 'key'>): Promise<ConfirmResult> {
      const read = tokens.read(token);
      if (read.kind !== 'valid') return { kind: read.kind };
      return db.transaction(async (tx): Promise<ConfirmResult> => {
        // Locked: two clicks at once confirm once; the second finds the row gone.
        const pending = await repo.lockPending(tx, read.pendingId);
        if (!pending) return { kind: 'used' };
        const form = await forms.byId(pending.formId, tx);
        const wording = await forms.wording(tx, pending.formId, pending.consentVersion);
        unavailableUnlessAdded(await repo.appendContact(tx, pending.audienceId, pending.email, pending.data));
        const entry = {
          audienceId: pending.audienceId,
          email: pending.email,
          formId: pending.formId,
          formName: form?.name ?? null,
          consentVersion: pending.consentVersion,
          wording: wording ?? null,
        };
        await appendConsent(tx, {
          ...entry,
          event: 'SUBSCRIBED',
          clientAddress: pending.clientAddress,
          userAgent: pending.userAgent,
          at: pending.createdAt,
        });
        const confirmedBy = { clientAddress: client.address ?? null, userAgent: client.userAgent?.slice(0, 500) ?? null };
        await appendConsent(tx, { ...entry, event: 'CONFIRMED', ...confirmedBy });
        // A person who had unsubscribed from everything comes back to this audience alone; one who had left
        // this audience alone joins it again. Either way the ledger says they came back, and how.
        const lifted = await repo.liftUnsubscribe(tx, pending.audienceId, pending.email);
        const rejoined = await repo.rejoinAudience(tx, pending.audienceId, pending.email);
        if (lifted || rejoined) {
          await appendConsent(tx, {
            ...entry,
            event: 'RESUBSCRIBED',
            ...confirmedBy,
            detail: { through: 'sign-up', unsubscribedEverywhere: lifted },
          });
        }
        await repo.removePending(tx, pending.id);
        return { kind: 'confirmed', formName: form?.name ?? '' };
      });
    },

    /** Removes pending sign-ups whose link expired, and used challenges past their own expiry. */
    async sweep() {
      const removed = await repo.sweep();
      if (removed.pending > 0) logger.info(removed, 'expired sign-ups removed');
      return removed;
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
export type { AudienceFieldRule };
