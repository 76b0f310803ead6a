/**
 * What the campaign services share (campaign-service.ts, scheduling-service.ts,
 * follow-up-service.ts, test-mail-service.ts): the reads that throw not-found when there is nothing
 * (named `...OrThrow`), the checks of header fields, NUL and senders, a status conflict that says
 * why, and the messages they give.
 */
import type { Tx } from '../../db/database.js';
import { assertOneLine, HeaderValueError } from '../../mail/message.js';
import { AUDIENCE_NOT_FOUND } from '../audiences/audience-service.js';
import { DomainError } from '../errors.js';
import { CAMPAIGN_NOT_FOUND } from '../sending/sending-service.js';
import type { Campaign, CampaignRepository, CampaignTemplateContent, LiveAudience } from './repository.js';

export { CAMPAIGN_NOT_FOUND };
export const TEMPLATE_NOT_FOUND = 'Template not found';
export const NO_NUL = 'Text must not contain NUL characters.';
export const SENDER_NOT_AUTHORIZED = 'The sender email must be one of the authorized addresses.';
export const TEMPLATE_EMPTY = 'The template has no content yet.';
/** A scheduled campaign is frozen (scheduled sending, an addition to the spec). */
export const SCHEDULED_FROZEN = 'This campaign is scheduled; cancel the schedule to change, send or delete it.';

/** A campaign waiting for approval is frozen too (send approval, issue 27); a save withdraws the request. */
export const AWAITING_FROZEN = 'This campaign is waiting for approval; withdraw the request to change, send or schedule it.';
/** Send and Schedule when the approval policy applies (issue 27): the editor offers the request instead. */
export const APPROVAL_NEEDED = "This campaign needs another member's approval: request approval instead of sending it.";

const NAME_MAX = 200;

/** The campaign; not-found when there is none (within `tx` when given). */
export async function campaignOrThrow(repo: CampaignRepository, id: number, tx?: Tx): Promise<Campaign> {
  const campaign = await repo.find(id, tx);
  if (!campaign) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
  return campaign;
}

export async function templateOrThrow(repo: CampaignRepository, id: number): Promise<CampaignTemplateContent> {
  const template = await repo.findTemplate(id);
  if (!template) throw new DomainError('not-found', TEMPLATE_NOT_FOUND);
  return template;
}

/** An audience that is not deleted; not-found otherwise. */
export async function audienceOrThrow(repo: CampaignRepository, id: number): Promise<LiveAudience> {
  const audience = await repo.findAudience(id);
  if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
  return audience;
}

/**
 * The status conflict of a campaign that is not where an action needs it: a scheduled one, or one
 * waiting for approval, says why; none at all is not-found.
 */
export const statusConflict = (status: string | undefined, message: string): DomainError =>
  status === undefined
    ? new DomainError('not-found', CAMPAIGN_NOT_FOUND)
    : new DomainError('conflict', status === 'SCHEDULED' ? SCHEDULED_FROZEN : status === 'AWAITING_APPROVAL' ? AWAITING_FROZEN : message);

/** PostgreSQL text cannot hold NUL; the data layer would store an escape sequence instead. */
export function noNul(...values: (string | null | undefined)[]): void {
  if (values.some((value) => value?.includes('\u0000'))) throw new DomainError('invalid', NO_NUL);
}

/** A header field: the contract forbids line breaks; checked again, whatever reached the database. */
export function oneLine(field: string, value: string | null | undefined): void {
  try {
    assertOneLine(field, value);
  } catch (error) {
    if (error instanceof HeaderValueError) throw new DomainError('invalid', error.message);
    throw error;
  }
}

/** Whether an address is one of the authorized senders (AUTHORIZED_SENDER_EMAILS), whatever its case and spaces. */
export function authorizedSenderCheck(authorizedSenders: readonly string[]): (address: string) => boolean {
  const authorized = new Set(authorizedSenders.map((address) => address.toLowerCase()));
  return (address) => authorized.has(address.trim().toLowerCase());
}

/** A copy's or a follow-up's name: the source's, cut so that the suffix fits the name's bound. */
export const derivedName = (name: string, suffix: string): string => `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
