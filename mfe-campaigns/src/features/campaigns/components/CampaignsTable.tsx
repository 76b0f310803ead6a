import { Button, MenuItem, TableBody, TableCell, TableRow } from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons/svg/copy';
import { MailRegular } from '@fluentui/react-icons/svg/mail';
import { errorMessage, type CampaignSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ColumnHeaders, DeleteMenuItem, RenameMenuItem, RowActions, ScrollingTable } from '@mailroom/ui';
import { lazy, Suspense, useState } from 'react';
import { useHref, useLinkClickHandler, useNavigate } from 'react-router-dom';
import { useReplicateCampaign } from '../api/campaigns';
import { CampaignNameCell, useCampaignHref } from './CampaignNameCell';
import { CampaignRateCell } from './CampaignRateCell';
import { CampaignStatusCell } from './CampaignStatusCell';

// The dialogs are fetched when first opened, which keeps the list's first load small.
const RenameCampaignDialog = lazy(() => import('./RenameCampaignDialog').then((module) => ({ default: module.RenameCampaignDialog })));
const DeleteCampaignDialog = lazy(() => import('./DeleteCampaignDialog').then((module) => ({ default: module.DeleteCampaignDialog })));
const FollowUpCampaignDialog = lazy(() =>
  import('./FollowUpCampaignDialog').then((module) => ({ default: module.FollowUpCampaignDialog })),
);

const COLUMNS = ['Name', 'Status', 'Open rate', 'Click Rate', 'Actions'];

type Pending = { kind: 'rename' | 'delete' | 'follow-up'; campaign: CampaignSummary } | null;

export function CampaignsTable({ campaigns }: { campaigns: CampaignSummary[] }) {
  const [pending, setPending] = useState<Pending>(null);
  return (
    <>
      <ScrollingTable aria-label="Campaigns">
        <ColumnHeaders columns={COLUMNS} />
        <TableBody>
          {campaigns.map((campaign) => (
            <TableRow key={campaign.id}>
              <TableCell>
                <CampaignNameCell campaign={campaign} />
              </TableCell>
              <TableCell>
                <CampaignStatusCell campaign={campaign} />
              </TableCell>
              <TableCell>
                <CampaignRateCell
                  count={campaign.uniqueOpens}
                  humanCount={campaign.humanUniqueOpens}
                  jobsSent={campaign.jobsSent}
                  unit="open"
                />
              </TableCell>
              <TableCell>
                <CampaignRateCell
                  count={campaign.uniqueClicks}
                  humanCount={campaign.humanUniqueClicks}
                  jobsSent={campaign.jobsSent}
                  unit="click"
                />
              </TableCell>
              <TableCell>
                <CampaignActions
                  campaign={campaign}
                  onRename={() => setPending({ kind: 'rename', campaign })}
                  onDelete={() => setPending({ kind: 'delete', campaign })}
                  onFollowUp={() => setPending({ kind: 'follow-up', campaign })}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollingTable>
      <Suspense fallback={null}>
        {pending?.kind === 'rename' && <RenameCampaignDialog campaign={pending.campaign} onClose={() => setPending(null)} />}
        {pending?.kind === 'delete' && <DeleteCampaignDialog campaign={pending.campaign} onClose={() => setPending(null)} />}
        {pending?.kind === 'follow-up' && <FollowUpCampaignDialog campaign={pending.campaign} onClose={() => setPending(null)} />}
      </Suspense>
    </>
  );
}

/** 'Edit' for a draft, 'View report' otherwise, and a menu with Rename, Replicate, Follow up (sent campaigns) and Delete. */
function CampaignActions({
  campaign,
  onRename,
  onDelete,
  onFollowUp,
}: {
  campaign: CampaignSummary;
  onRename: () => void;
  onDelete: () => void;
  onFollowUp: () => void;
}) {
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const href = useCampaignHref(campaign);
  const linkHref = useHref(href);
  const openHere = useLinkClickHandler<HTMLAnchorElement>(href);
  const replicate = useReplicateCampaign();
  const draft = campaign.status === 'DRAFT';
  const scheduled = campaign.status === 'SCHEDULED';
  // Awaiting approval (issue 27): read in the editor, where it is approved or declined.
  const awaiting = campaign.status === 'AWAITING_APPROVAL';
  const label = draft ? 'Edit' : scheduled ? 'Open' : awaiting ? 'Review' : 'View report';

  // The copy is a draft: it opens in the editor, as a replicated template opens in its own.
  const replicateCampaign = () =>
    replicate.mutate(campaign.id, {
      onSuccess: (id) => {
        notify('success', `Successfully replicated campaign ${campaign.name}`);
        void navigate(`${basePath}/edit/${id}`);
      },
      onError: (error) => notify('error', errorMessage(error, 'Failed to replicate campaign')),
    });

  return (
    <RowActions
      itemName={campaign.name}
      needs={{ role: 'editor', action: 'rename, copy or delete campaigns' }}
      primary={
        // A link that looks like a button: it navigates, so it also opens in a new tab.
        <Button
          as="a"
          size="small"
          href={linkHref}
          onClick={openHere}
          aria-label={`${draft || scheduled || awaiting ? label : 'View report of'} ${campaign.name}`}
        >
          {label}
        </Button>
      }
    >
      {/* A scheduled campaign is frozen until its schedule is cancelled in the editor (the API answers 409). */}
      {/* A rename of a campaign awaiting approval would withdraw the request: it is done in the editor, after withdrawing. */}
      <RenameMenuItem disabled={scheduled || awaiting} onClick={onRename} />
      <MenuItem icon={<CopyRegular />} disabled={replicate.isPending} onClick={replicateCampaign}>
        Replicate
      </MenuItem>
      {campaign.status === 'SENT' && (
        <MenuItem icon={<MailRegular />} onClick={onFollowUp}>
          Follow up
        </MenuItem>
      )}
      {/* A campaign is not deleted while it sends or is scheduled (the API answers 409). */}
      <DeleteMenuItem disabled={campaign.status === 'SENDING' || scheduled} onClick={onDelete} />
    </RowActions>
  );
}
