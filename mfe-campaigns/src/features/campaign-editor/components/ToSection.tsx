import { Button, Text } from '@fluentui/react-components';
import { PeopleRegular } from '@fluentui/react-icons/svg/people';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { counted, RouterLink } from '@mailroom/ui';
import type { CampaignDraft } from '../utils/draft';
import { EditorSection } from './EditorSection';

/**
 * The audience the campaign goes to; `onChoose` opens the audience picker; `disabled` in a campaign no
 * longer a draft. A follow-up names its recipients and their count instead: its audience is its
 * original's and cannot change.
 */
export function ToSection({
  audience,
  followUp = null,
  onChoose,
  disabled = false,
}: {
  audience: CampaignDraft['audience'];
  followUp?: { label: string; recipientCount: number } | null;
  onChoose: () => void;
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
    <EditorSection value="to" title="To" done={audience !== null} summary={audience ? audience.name : 'Who receives this campaign?'}>
      {audience ? <Text>Audience: {audienceLink}</Text> : <Text>No audience chosen yet.</Text>}
      <Button icon={<PeopleRegular />} disabled={disabled} onClick={onChoose}>
        {audience ? 'Change audience' : 'Choose audience'}
      </Button>
    </EditorSection>
  );
}
