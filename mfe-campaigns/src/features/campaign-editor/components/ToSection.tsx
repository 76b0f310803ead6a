import { Button, Field, Select, Spinner, Text } from '@fluentui/react-components';
import { PeopleRegular } from '@fluentui/react-icons/svg/people';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { errorMessage } from '@mailroom/api-client';
import { ruleToWords } from '@mailroom/api-client/segments';
import { counted, RouterLink, RoleGate } from '@mailroom/ui';
import { useAudienceSegments } from '../api/pickers';
import { recipientsName } from '../utils/draft';
import type { CampaignDraft } from '../utils/draft';
import { EditorSection } from './EditorSection';

/**
 * The audience the campaign goes to, and optionally one of its segments (issue 26; "Whole audience" by
 * default); `onChoose` opens the audience picker; `disabled` in a campaign no longer a draft. A follow-up names its recipients and their count instead: its audience is its
 * original's and cannot change.
 */
export function ToSection({
  audience,
  segment = null,
  followUp = null,
  onChoose,
  onSegmentChange,
  disabled = false,
}: {
  audience: CampaignDraft['audience'];
  segment?: CampaignDraft['segment'];
  followUp?: { label: string; recipientCount: number } | null;
  onChoose: () => void;
  onSegmentChange?: (segment: CampaignDraft['segment']) => void;
  disabled?: boolean;
}) {
  const audienceLink = audience && <RouterLink to={`${REMOTES.audiences.basePath}/${audience.id}`}>{audience.name}</RouterLink>;
  if (followUp) {
    const { label, recipientCount } = followUp;
    const count = counted(recipientCount, 'contact');
    return (
      <EditorSection value="to" title="To" done summary={`${label} (${count})`}>
        <Text weight="semibold">{label}</Text>
        <Text>
          {count}
          {audienceLink ? <> of the audience {audienceLink}</> : null}, chosen when this follow-up was made; suppressed addresses are left
          out.
        </Text>
      </EditorSection>
    );
  }
  return (
    <EditorSection
      value="to"
      title="To"
      done={audience !== null}
      summary={audience ? recipientsName({ audience, segment }) : 'Who receives this campaign?'}
    >
      {audience ? <Text>Audience: {audienceLink}</Text> : <Text>No audience chosen yet.</Text>}
      <RoleGate needs="editor" action="choose a campaign's audience">
        {(lock) => (
          <Button icon={<PeopleRegular />} disabled={disabled} onClick={onChoose} {...lock}>
            {audience ? 'Change audience' : 'Choose audience'}
          </Button>
        )}
      </RoleGate>
      {audience && <SegmentPicker audienceId={audience.id} segment={segment} disabled={disabled} onChange={onSegmentChange} />}
    </EditorSection>
  );
}

const WHOLE_AUDIENCE = '';

/** The audience's segments to narrow the campaign to, with the chosen one's rule in words. */
function SegmentPicker({
  audienceId,
  segment,
  disabled,
  onChange,
}: {
  audienceId: number;
  segment: CampaignDraft['segment'];
  disabled: boolean;
  onChange: ((segment: CampaignDraft['segment']) => void) | undefined;
}) {
  const segments = useAudienceSegments(audienceId);
  if (segments.isPending) return <Spinner size="tiny" label="Loading segments..." />;
  const items = segments.data ?? [];
  const chosen = segment ? items.find((s) => s.id === segment.id) : undefined;
  return (
    <Field
      label="Segment"
      hint={chosen ? `Contacts who match: ${ruleToWords(chosen.rule)}` : 'Every valid, subscribed contact of the audience.'}
      validationMessage={segments.isError ? errorMessage(segments.error, 'Failed to load the segments') : undefined}
    >
      <Select
        value={segment ? String(segment.id) : WHOLE_AUDIENCE}
        disabled={disabled || !onChange}
        onChange={(_e, data) => {
          const picked = items.find((s) => String(s.id) === data.value);
          onChange?.(picked ? { id: picked.id, name: picked.name } : null);
        }}
      >
        <option value={WHOLE_AUDIENCE}>Whole audience</option>
        {/* A segment saved on the campaign but missing from the list (still loading, or deleted) stays shown. */}
        {segment && !chosen && <option value={String(segment.id)}>{segment.name}</option>}
        {items.map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}
