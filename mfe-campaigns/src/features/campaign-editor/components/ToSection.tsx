import { Button, Text } from '@fluentui/react-components';
import { PeopleRegular } from '@fluentui/react-icons';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { RouterLink } from '@mailroom/ui';
import type { CampaignDraft } from '../utils/draft';
import { EditorSection } from './EditorSection';

/** The audience the campaign goes to; `onChoose` opens the audience picker; `disabled` in a campaign no longer a draft. */
export function ToSection({
  audience,
  onChoose,
  disabled = false,
}: {
  audience: CampaignDraft['audience'];
  onChoose: () => void;
  disabled?: boolean;
}) {
  return (
    <EditorSection value="to" title="To" done={audience !== null} summary={audience ? audience.name : 'Who receives this campaign?'}>
      {audience ? (
        <Text>
          Audience: <RouterLink to={`${REMOTES.audiences.basePath}/${audience.id}`}>{audience.name}</RouterLink>
        </Text>
      ) : (
        <Text>No audience chosen yet.</Text>
      )}
      <Button icon={<PeopleRegular />} disabled={disabled} onClick={onChoose}>
        {audience ? 'Change audience' : 'Choose audience'}
      </Button>
    </EditorSection>
  );
}
