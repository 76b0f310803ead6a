/**
 * SES delivery events, as SNS posts them to the webhook (docs/architecture.md, Data; Sending, at most once per job): Delivery moves a
 * job to SENT_SUCCESS; Bounce records its type (Permanent as HARD, others SOFT), message and time;
 * Complaint records its type and time; hard bounces and complaints suppress the address for every
 * later send of the organisation, and so do `softBounceLimit` soft bounces in a row (a delivery in
 * between starts the count again; an addition to the spec). Any of the three, naming by its tags a job left UNKNOWN, proves
 * the mail went out: the job is settled as sent first, then the event applies as to any other.
 *
 * Trust first: a message is used only once its SNS signature verifies (sns-message.ts) and its
 * topic is one this deployment subscribed to; each SNS MessageId is applied once.
 */
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { recipientAddress } from '../../mail/address.js';
import { DomainError } from '../errors.js';
import { sesEventRepository } from './repository.js';
import { isGenuineSubscribeUrl, parseSnsMessage, SnsMessageError, type SnsMessage, type SnsVerifier } from './sns-message.js';

/** The part of an SES event this product reads (event publishing's `eventType`, or a notification's `notificationType`). */
const recipient = z.object({ emailAddress: z.string(), diagnosticCode: z.string().optional() });
const sesEvent = z.object({
  eventType: z.string().optional(),
  notificationType: z.string().optional(),
  mail: z.object({
    messageId: z.string().min(1),
    // When SES accepted the mail, and the addresses it was sent to.
    timestamp: z.string().optional(),
    destination: z.array(z.string()).default([]),
    // The EmailTags the mail was sent with (event publishing): campaign_id and job_id name its job.
    tags: z.record(z.string(), z.array(z.string())).optional(),
  }),
  bounce: z
    .object({
      bounceType: z.string(),
      bounceSubType: z.string().optional(),
      bouncedRecipients: z.array(recipient).default([]),
      timestamp: z.string().optional(),
    })
    .optional(),
  complaint: z
    .object({
      complainedRecipients: z.array(recipient).default([]),
      complaintFeedbackType: z.string().optional(),
      timestamp: z.string().optional(),
    })
    .optional(),
});

export type SesEventOutcome = 'applied' | 'repeated' | 'ignored' | 'subscribed';

export interface SesEventServiceDeps {
  db: Database;
  verify: SnsVerifier;
  topicArns: readonly string[];
  /** An address whose last this many mails all bounced softly is suppressed (SOFT_BOUNCE_LIMIT). */
  softBounceLimit: number;
  /** Visits a genuine SubscribeURL (a GET) to confirm the subscription. */
  confirmSubscription: (url: string) => Promise<void>;
  logger: Logger;
}

const timeOf = (value: string | undefined): Date => {
  const time = value ? new Date(value) : new Date();
  return Number.isNaN(time.getTime()) ? new Date() : time;
};

/** The job an event's tags name (`campaign_id` and `job_id`, as the sender tags every mail), if any. */
function jobOfTags(tags: Record<string, string[]> | undefined): { campaignId: number; jobId: number } | undefined {
  const campaignId = Number(tags?.campaign_id?.[0]);
  const jobId = Number(tags?.job_id?.[0]);
  return Number.isSafeInteger(campaignId) && campaignId > 0 && Number.isSafeInteger(jobId) && jobId > 0 ? { campaignId, jobId } : undefined;
}

export function createSesEventService({ db, verify, topicArns, softBounceLimit, confirmSubscription, logger }: SesEventServiceDeps) {
  const repo = sesEventRepository(db);

  const trusted = async (body: unknown): Promise<SnsMessage> => {
    try {
      const message = parseSnsMessage(body);
      await verify(message);
      if (!topicArns.includes(message.TopicArn)) throw new SnsMessageError('untrusted', 'The topic is not one this deployment takes');
      return message;
    } catch (error) {
      if (!(error instanceof SnsMessageError)) throw error;
      logger.warn({ reason: error.message }, 'SNS message refused');
      throw new DomainError(error.reason === 'malformed' ? 'invalid' : 'forbidden', error.message);
    }
  };

  const apply = async (message: SnsMessage): Promise<SesEventOutcome> => {
    let event: z.infer<typeof sesEvent>;
    try {
      event = sesEvent.parse(JSON.parse(message.Message));
    } catch {
      logger.warn({ messageId: message.MessageId }, 'SNS notification without an SES event: ignored');
      return 'ignored';
    }
    const kind = event.eventType ?? event.notificationType;
    const sesMessageId = event.mail.messageId;
    const taggedJob = jobOfTags(event.mail.tags);
    // The recipients as the contacts have them (a domain went to SES in its ASCII form).
    const destination = event.mail.destination.map(recipientAddress);
    return db.transaction(async (tx) => {
      if (!(await repo.firstDelivery(tx, message.MessageId))) return 'repeated';
      if (taggedJob && (kind === 'Delivery' || kind === 'Bounce' || kind === 'Complaint')) {
        const settled = await repo.settleUnknown(tx, sesMessageId, taggedJob, destination, timeOf(event.mail.timestamp));
        if (settled) logger.info({ ...taggedJob, kind }, 'an UNKNOWN job is settled by its SES event');
      }
      /**
       * An event can overtake the worker's record of the send it is about (SES answered, the event came
       * back, and the worker has not written the message id yet). Then the job it names by its tags is
       * still SENDING: answering 503 rolls back this transaction, and SNS delivers the message again.
       */
      const notYetRecorded = async (campaignId: number | undefined) => {
        if (campaignId === undefined && taggedJob && (await repo.isAwaitingOutcome(tx, taggedJob))) {
          throw new DomainError('unavailable', 'The send of this mail is not recorded yet; deliver the event again');
        }
      };
      if (kind === 'Delivery') {
        await notYetRecorded(await repo.delivered(tx, sesMessageId));
        await repo.resetSoftBounces(tx, destination);
      } else if (kind === 'Bounce' && event.bounce) {
        const { bounce } = event;
        const type = bounce.bounceType === 'Permanent' ? 'HARD' : 'SOFT';
        const diagnostic = bounce.bouncedRecipients.find((r) => r.diagnosticCode)?.diagnosticCode;
        const text = diagnostic ?? [bounce.bounceType, bounce.bounceSubType].filter(Boolean).join(': ');
        const campaignId = await repo.bounced(tx, sesMessageId, { type, message: text.slice(0, 2000), time: timeOf(bounce.timestamp) });
        await notYetRecorded(campaignId);
        if (type === 'HARD') {
          await repo.suppress(
            tx,
            bounce.bouncedRecipients.map((r) => recipientAddress(r.emailAddress)),
            'HARD_BOUNCE',
            campaignId ?? null,
          );
        } else {
          const suppressed = await repo.countSoftBounces(
            tx,
            bounce.bouncedRecipients.map((r) => recipientAddress(r.emailAddress)),
            sesMessageId,
            softBounceLimit,
            campaignId ?? null,
          );
          if (suppressed.length > 0) logger.info({ addresses: suppressed.length }, 'suppressed after repeated soft bounces');
        }
      } else if (kind === 'Complaint' && event.complaint) {
        const { complaint } = event;
        const campaignId = await repo.complained(tx, sesMessageId, {
          type: complaint.complaintFeedbackType ?? 'complaint',
          time: timeOf(complaint.timestamp),
        });
        await notYetRecorded(campaignId);
        await repo.suppress(
          tx,
          complaint.complainedRecipients.map((r) => recipientAddress(r.emailAddress)),
          'COMPLAINT',
          campaignId ?? null,
        );
      } else {
        return 'ignored';
      }
      return 'applied';
    });
  };

  return {
    /** Handles one webhook body; throws DomainError invalid (not SNS) or forbidden (not trusted). */
    async receive(body: unknown): Promise<SesEventOutcome> {
      const message = await trusted(body);
      if (message.Type === 'SubscriptionConfirmation') {
        if (!message.SubscribeURL || !isGenuineSubscribeUrl(message.SubscribeURL, message.TopicArn)) {
          throw new DomainError('forbidden', 'The SubscribeURL is not an SNS confirmation of this topic');
        }
        await confirmSubscription(message.SubscribeURL);
        logger.info({ topicArn: message.TopicArn }, 'SNS subscription confirmed');
        return 'subscribed';
      }
      if (message.Type === 'UnsubscribeConfirmation') return 'ignored';
      return apply(message);
    },
  };
}

export type SesEventService = ReturnType<typeof createSesEventService>;

/** Confirms a subscription by visiting its (already checked) SubscribeURL. */
export async function visitSubscribeUrl(url: string): Promise<void> {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new DomainError('unavailable', `SNS did not confirm the subscription (${response.status})`);
}
