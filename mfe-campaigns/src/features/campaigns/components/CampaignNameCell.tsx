import { makeStyles } from '@fluentui/react-components';
import type { CampaignSummary } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import { DetailLine, LastEdited, NameWithDetails, RouterLink, formatDateTime } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { minWidth: '200px' },
});

/** Where a campaign's name leads: its editor while it is a draft, its report afterwards. */
export function useCampaignHref(campaign: Pick<CampaignSummary, 'id' | 'status'>): string {
  const { basePath } = useRemote();
  return campaign.status === 'DRAFT' ? `${basePath}/edit/${campaign.id}` : `${REMOTES.reports.basePath}/${campaign.id}`;
}

/** The name (to the editor or the report), its audience, for a sent one its date and recipients, and who last edited it. */
export function CampaignNameCell({ campaign }: { campaign: CampaignSummary }) {
  const styles = useStyles();
  const href = useCampaignHref(campaign);
  const sent = campaign.status !== 'DRAFT';
  return (
    <NameWithDetails name={campaign.name} to={href} className={styles.root}>
      {campaign.audienceId !== null && (
        <DetailLine>
          To:{' '}
          <RouterLink to={`${REMOTES.audiences.basePath}/${campaign.audienceId}`} inline>
            {campaign.audienceName ?? `Audience ${campaign.audienceId}`}
          </RouterLink>
        </DetailLine>
      )}
      {sent && (
        <>
          {campaign.deliveryDate && <DetailLine>{formatDateTime(campaign.deliveryDate)}</DetailLine>}
          <DetailLine>
            {campaign.jobsSent} / {campaign.contactCount} recipients ({campaign.jobsFailed} failed)
          </DetailLine>
        </>
      )}
      <LastEdited item={campaign} />
    </NameWithDetails>
  );
}
