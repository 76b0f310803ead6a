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
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import { DomainError } from '../errors.js';
import { appendConsent } from '../consent/repository.js';
import type { SendingService } from '../sending/sending-service.js';
import type { SignupChallenges } from './challenge.js';
import { confirmationMail } from './confirmation-mail.js';
import type { ConfirmTokens } from './confirm-token.js';
import { formsRepository, type AudienceFieldRule, type FormRecord } from './forms-repository.js';
import {
  signupRepository,
  type AppendOutcome,
  type PendingSignupInput,
  type SubmissionKey,
  type SubmissionState,
} from './signup-repository.js';
import { groupCommit } from '../../db/group-commit.js';
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
const MAIL_LIMITS = { perHour: MAILS_PER_HOUR, perDay: MAILS_PER_DAY };
const HOUR_MS = 60 * 60_000;
/**
 * How long a process reuses a form (with its fields) that it read for the public routes: a burst of sign-ups
 * after a newsletter goes out reads it once, not twice a request. A change of a form or of the audience's fields
 * made through this process is seen at once (`forgetForms`); one made through another process, within this.
 */
export const FORM_CACHE_MS = 2_000;
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

  type PublicForm = { form: FormRecord; fields: FormFieldRule[] };

  async function loadForm(slug: string): Promise<PublicForm | undefined> {
    const form = await forms.bySlug(slug);
    if (!form) return undefined;
    const rules = new Map((await forms.audienceFields(form.audienceId)).map((rule) => [rule.key, rule]));
    // A field removed from the audience since the form was made is no longer asked.
    const fields = form.fields.flatMap((field) => {
      const rule = rules.get(field.key);
      return rule ? [{ ...field, rule }] : [];
    });
    return { form, fields };
  }

  // Requests that arrive together share one read (the promise is kept, not its result); a form not found is
  // kept too, so made-up slugs cost no more than real ones.
  const formCache = new Map<string, { loaded: Promise<PublicForm | undefined>; until: number }>();

  /** The form of `slug` and the fields it asks; `minVersion`: a page showed that consent version, so read again if older. */
  async function formBySlug(slug: string, minVersion = 0): Promise<PublicForm> {
    let cached = formCache.get(slug);
    if (!cached || cached.until <= Date.now()) {
      if (formCache.size >= 10_000) formCache.clear();
      cached = { loaded: loadForm(slug), until: Date.now() + FORM_CACHE_MS };
      formCache.set(slug, cached);
      // A failed read is not kept: the next request reads again.
      cached.loaded.catch(() => formCache.get(slug) === cached && formCache.delete(slug));
    }
    let found = await cached.loaded;
    if (found && found.form.consentVersion < minVersion) {
      formCache.delete(slug);
      found = await formBySlug(slug);
    }
    if (!found) throw new DomainError('not-found', 'This sign-up form does not exist (any more).');
    return found;
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

  /** A submission whose challenge was taken before: refused (CHALLENGE_REPLAYED). */
  const REPLAYED = 'replayed' as const;
  /**
   * Whether a submission, its transaction opened, goes on: not when its challenge was a replay, nor for a hard
   * bounce, a complaint, an erasure...: nothing is mailed and nothing kept, and the answer is the same.
   */
  const admits = (state: SubmissionState) => state.challengeTaken && !(state.suppressed !== null && STAYS_SUPPRESSED.has(state.suppressed));

  /**
   * The submissions to forms that ask for confirmation, written together (db/group-commit.ts): one transaction
   * opens them all, then keeps a pending sign-up and its mail for each one admitted and within the mail limits.
   * Each gets its mail, nothing (over the limits, suppressed), or REPLAYED.
   */
  const writePendingTogether = groupCommit((submissions: readonly { key: SubmissionKey; pending: PendingSignupInput }[]) =>
    db.transaction(async (tx) => {
      const states = await repo.openSubmissions(
        tx,
        submissions.map((submission) => submission.key),
      );
      const admitted = submissions.flatMap((submission, i) => (admits(states[i]!) ? [{ i, pending: submission.pending }] : []));
      const mails = await repo.insertPendingsWithinLimits(
        tx,
        admitted.map((entry) => entry.pending),
        MAIL_LIMITS,
      );
      const mailOf = new Map(admitted.map((entry, k) => [entry.i, mails[k]]));
      return states.map((state, i) => (state.challengeTaken ? mailOf.get(i) : REPLAYED));
    }),
  );

  return {
    /** The form and the fields its page shows. */
    page: (slug: string) => formBySlug(slug),

    /** A form was changed or deleted through this process: its public routes read it again. */
    forgetForms(): void {
      formCache.clear();
    },

    /** The origins that may call the form from other sites (CORS); none for a form that does not exist. */
    async allowedOrigins(slug: string): Promise<readonly string[]> {
      try {
        return (await formBySlug(slug)).form.allowedOrigins;
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not-found') return [];
        throw error;
      }
    },

    async challenge(slug: string) {
      await formBySlug(slug);
      return challenges.create(slug);
    },

    async submit(slug: string, body: unknown, client: SignupClient): Promise<SubmitResult> {
      let { form, fields } = await formBySlug(slug);
      const clientId = client.key;
      if (!perClient.take(clientId)) return { kind: 'too-many', message: TOO_MANY_FROM_CLIENT };
      let submission = readSubmission(body, fields);
      // The page is newer than what this process remembers: the form is read again, and the submission against it.
      if ((submission.consentVersion ?? 0) > form.consentVersion) {
        ({ form, fields } = await formBySlug(slug, submission.consentVersion));
        submission = readSubmission(body, fields);
      }

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
      // The wording the person saw: the version the page or the pasted HTML sent, else the form's current one.
      const consentVersion = submission.consentVersion ?? form.consentVersion;
      if (consentVersion > form.consentVersion) throw new DomainError('invalid', WORDING_CHANGED);
      const wording = consentVersion === form.consentVersion ? form.consentWording : await forms.wording(db, form.id, consentVersion);
      if (wording === undefined) throw new DomainError('invalid', WORDING_CHANGED);

      const who = { clientAddress: client.address ?? null, userAgent: client.userAgent?.slice(0, 500) ?? null };
      const key = { audienceId: form.audienceId, email: submission.email, challenge: solved };
      const pending: PendingSignupInput = {
        formId: form.id,
        audienceId: form.audienceId,
        email: submission.email,
        data: submission.data,
        consentVersion,
        expiresAt: new Date(Date.now() + linkMs),
        ...who,
      };
      // The usual case, a form that asks for confirmation, is written with the other sign-ups of the moment: one
      // transaction for a burst's submissions (writePendingTogether).
      const queued = form.confirmationRequired
        ? await writePendingTogether({ key, pending })
        : // One transaction whatever follows: the solution is taken once (else a replay's answer would tell which
          // address came before), the address and audience are locked for the mail limits, and the address's state is
          // read. A refusal keeps nothing.
          await db.transaction(async (tx) => {
            const [state] = await repo.openSubmissions(tx, [key]);
            if (!state!.challengeTaken) return REPLAYED;
            if (!admits(state!)) return undefined;
            // A person who unsubscribed (from everything or from this audience) comes back only by the mail's link,
            // even through a form that asks no confirmation: nobody re-subscribes a stranger without it.
            if (state!.suppressed !== 'UNSUBSCRIBE' && !state!.leftAudience) {
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
              return undefined;
            }
            const [mail] = await repo.insertPendingsWithinLimits(tx, [pending], MAIL_LIMITS);
            return mail;
          });
      if (queued === REPLAYED) throw new DomainError('invalid', CHALLENGE_REPLAYED);
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
