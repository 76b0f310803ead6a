import { Button } from '@fluentui/react-components';
import { MailArrowForwardRegular } from '@fluentui/react-icons';
import type { Campaign } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { FollowUpDialog, useFollowUpCampaign, RoleGate } from '@mailroom/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * 'Follow up' on a sent campaign's report (an addition to the spec): the dialog makes a draft for
 * those who did not open it, or did not click, and opens it in the campaigns remote's editor.
 */
export function FollowUpButton({ campaign }: { campaign: Campaign }) {
  const [open, setOpen] = useState(false);
  const { notify } = useRemote();
  const navigate = useNavigate();
  const followUp = useFollowUpCampaign();
  return (
    <>
      <RoleGate needs="editor" action="make follow-ups">
        {(lock) => (
          <Button icon={<MailArrowForwardRegular />} onClick={() => setOpen(true)} {...lock}>
            Follow up
          </Button>
        )}
      </RoleGate>
      {open && (
        <FollowUpDialog
          campaignName={campaign.name}
          create={(recipients) => followUp.mutateAsync({ id: campaign.id, recipients })}
          onCreated={(id) => {
            notify('success', `Follow-up of ${campaign.name} created`);
            void navigate(`${REMOTES.campaigns.basePath}/edit/${id}`);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
