import type { Campaign, FollowUpRecipients, Schemas } from '@mailroom/api-client';
import { followUpRecipientsLabel } from '@mailroom/api-client/labels';

export type CampaignUpdateInput = Schemas['CampaignUpdateInput'];

/** What the editor's form holds: the campaign as the member is shaping it, saved by Finish later and Send. */
export interface CampaignDraft {
  name: string;
  audience: { id: number; name: string } | null;
  /** A segment of the audience to send to instead of all of it (issue 26); null: the whole audience. */
  segment: { id: number; name: string } | null;
  fromName: string;
  fromEmail: string;
  subject: string;
  previewText: string;
  template: { id: number; name: string; preview: string | null } | null;
}

/**
 * A follow-up goes to the people frozen when it was made: the To section, the preview and the send's
 * confirmation all name them ('People who did not open "Autumn news"') with their count.
 */
export interface DraftFollowUp {
  /** The follow-up's own id (its recipients are read through it). */
  campaignId: number;
  label: string;
  recipients: FollowUpRecipients;
  /** The campaign it follows up. */
  campaignName: string;
  recipientCount: number;
}

export function followUpOf(campaign: Campaign): DraftFollowUp | null {
  if (!campaign.followUp) return null;
  const { recipients, campaignName, recipientCount } = campaign.followUp;
  return { campaignId: campaign.id, label: followUpRecipientsLabel(recipients, campaignName), recipients, campaignName, recipientCount };
}

export function draftOf(campaign: Campaign): CampaignDraft {
  return {
    name: campaign.name,
    audience: campaign.audienceId === null ? null : { id: campaign.audienceId, name: campaign.audienceName ?? '' },
    // A deleted segment (id null) is no longer a choice; what was sent to it is the report's to show.
    segment: campaign.segment?.id ? { id: campaign.segment.id, name: campaign.segment.name } : null,
    fromName: campaign.fromName ?? '',
    fromEmail: campaign.fromEmail ?? '',
    subject: campaign.subject ?? '',
    previewText: campaign.previewText ?? '',
    template: campaign.template
      ? { id: campaign.template.id, name: campaign.template.name, preview: campaign.template.preview }
      : campaign.templateId === null
        ? null
        : { id: campaign.templateId, name: '', preview: null },
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The save body (docs/product.md, The calls): every field, blank ones as null so that clearing a field clears it on the server. */
export function updateInputOf(draft: CampaignDraft): CampaignUpdateInput {
  return {
    name: draft.name.trim(),
    audienceId: draft.audience?.id ?? null,
    audienceName: draft.audience?.name ?? null,
    fromName: orNull(draft.fromName),
    fromEmail: orNull(draft.fromEmail),
    subject: orNull(draft.subject),
    previewText: orNull(draft.previewText),
    templateId: draft.template?.id ?? null,
    segmentId: draft.segment?.id ?? null,
  };
}

/** Whom the campaign goes to, as the confirmation and the preview name them: 'Tree news – Over forty' for a segment. */
export function recipientsName(draft: Pick<CampaignDraft, 'audience' | 'segment'>): string {
  const audience = draft.audience?.name ?? '';
  return draft.segment ? `${audience} – ${draft.segment.name}` : audience;
}
