/**
 * The campaign editor's query keys: the campaign being edited, the authorized senders, the pickers'
 * pages, and what the send flow and the preview read (an audience, its contacts or a follow-up's
 * recipients, the rendered email, the validation result).
 */
export interface PickerParams {
  page: number;
  limit: number;
  /** Trimmed; '' when the search box is blank. */
  name: string;
}

export interface PreviewContactsParams {
  page: number;
  limit: number;
}

export interface RenderParams {
  templateId: number;
  contactId?: number;
  subject?: string;
  previewText?: string;
}

export interface ValidateParams {
  templateId: number;
  audienceId: number;
  /** A follow-up being previewed: only its recipients are validated. */
  campaignId?: number;
  subject?: string;
  previewText?: string;
}

export const editorKeys = {
  all: ['campaign-editor'] as const,
  campaign: (id: number) => [...editorKeys.all, 'campaign', id] as const,
  /** The campaign's A/B test (issue 28), null when it has none. */
  abTest: (id: number) => [...editorKeys.campaign(id), 'ab-test'] as const,
  senders: () => [...editorKeys.all, 'authorized-senders'] as const,
  audiencePage: (params: PickerParams) => [...editorKeys.all, 'audience-picker', params] as const,
  templatePage: (params: PickerParams) => [...editorKeys.all, 'template-picker', params] as const,
  audience: (id: number) => [...editorKeys.all, 'audience', id] as const,
  suppressed: (audienceId: number) => [...editorKeys.audience(audienceId), 'suppressed'] as const,
  /** The audience's segments, offered in the To section (issue 26). */
  segments: (audienceId: number) => [...editorKeys.audience(audienceId), 'segments'] as const,
  /** A segment's count afresh, when Send is pressed. */
  segmentCount: (segmentId: number) => [...editorKeys.all, 'segment-count', segmentId] as const,
  fields: (audienceId: number) => [...editorKeys.audience(audienceId), 'fields'] as const,
  contacts: (audienceId: number, params: PreviewContactsParams) => [...editorKeys.audience(audienceId), 'contacts', params] as const,
  /** A follow-up's frozen recipients (they replace the audience's contacts in its preview). */
  recipients: (campaignId: number, params: PreviewContactsParams) => [...editorKeys.campaign(campaignId), 'recipients', params] as const,
  /** How many of a follow-up's recipients its original reached since (its send drops them). */
  reached: (campaignId: number) => [...editorKeys.all, 'reached', campaignId] as const,
  rendered: (params: RenderParams) => [...editorKeys.all, 'rendered', params] as const,
  validation: (params: ValidateParams) => [...editorKeys.all, 'validation', params] as const,
};
