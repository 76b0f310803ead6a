import type { FollowUpRecipients, SuppressedContacts } from '@mailroom/api-client';
import { plural } from '@mailroom/ui';
import type { CampaignDraft } from './draft';

/** The pre-send checks' messages (docs/product.md, the screens' checks), in the order they run. */
export const PRESEND_MESSAGES = {
  audience: 'Please select an audience',
  template: 'Please select a template',
  subject: 'Please input email subject',
  fromName: "Please input name for who's sending this campaign",
  fromEmail: "Please input email for who's sending this campaign",
} as const;

/** Whether the sender address is one the organisation authorized; unknown (list not loaded) counts as chosen. */
export function isAuthorizedSender(fromEmail: string, authorizedSenders: readonly string[] | undefined): boolean {
  if (fromEmail === '') return false;
  return authorizedSenders === undefined || authorizedSenders.includes(fromEmail);
}

/**
 * The first pre-send check the draft fails, or null. A test email goes to typed addresses, so it
 * skips the audience check (`needsAudience: false`) and runs the others in the same order.
 */
export function presendError(
  draft: CampaignDraft,
  authorizedSenders: readonly string[] | undefined,
  { needsAudience = true }: { needsAudience?: boolean } = {},
): string | null {
  if (needsAudience && !draft.audience) return PRESEND_MESSAGES.audience;
  if (!draft.template) return PRESEND_MESSAGES.template;
  if (draft.subject.trim() === '') return PRESEND_MESSAGES.subject;
  if (draft.fromName.trim() === '') return PRESEND_MESSAGES.fromName;
  if (!isAuthorizedSender(draft.fromEmail, authorizedSenders)) return PRESEND_MESSAGES.fromEmail;
  return null;
}

/**
 * What the send confirmation and the preview add to the spec's count (numberOfContacts minus
 * numberOfContactsWithErrors): how many of those valid contacts are suppressed and will be skipped,
 * and why. Null when none is (or the count could not be read).
 */
export function suppressedNote(counts: SuppressedContacts | null | undefined, whose: 'them' | 'audience'): string | null {
  if (!counts || counts.suppressedContacts === 0) return null;
  const n = counts.suppressedContacts;
  const reasons = (
    [
      [counts.unsubscribed, 'unsubscribed'],
      [counts.hardBounced, 'bounced for good'],
      [counts.complained, 'complained'],
    ] as const
  )
    .filter(([count]) => count > 0)
    .map(([count, why]) => `${count} ${why}`)
    .join(', ');
  const of = whose === 'them' ? 'of them' : `of the audience's valid contacts`;
  return `${n} ${of} ${plural(n, 'is', 'are')} suppressed and will be skipped (${reasons}).`;
}

/**
 * What a follow-up's confirmation adds: how many of its recipients the original has reached since
 * they were frozen (opened it, or clicked in it, as a person), whom the send will leave out. Null when none.
 */
export function reachedNote(followUp: { recipients: FollowUpRecipients; campaignName: string }, reached: number): string | null {
  if (reached === 0) return null;
  const did = followUp.recipients === 'NOT_CLICKED' ? 'clicked in' : 'opened';
  return `${reached} of them ${did} “${followUp.campaignName}” since the follow-up was made and will be left out.`;
}
