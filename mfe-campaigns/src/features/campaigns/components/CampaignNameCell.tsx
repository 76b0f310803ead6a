import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import type { CampaignSummary } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import { RouterLink, formatDateTime } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalXXS, minWidth: '200px' },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  detail: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
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
    <div className={styles.root}>
      <RouterLink to={href} className={styles.name}>
        {campaign.name}
      </RouterLink>
      {campaign.audienceId !== null && (
        <Caption1 className={styles.detail}>
          To:{' '}
          <RouterLink to={`${REMOTES.audiences.basePath}/${campaign.audienceId}`} inline>
            {campaign.audienceName ?? `Audience ${campaign.audienceId}`}
          </RouterLink>
        </Caption1>
      )}
      {sent && (
        <>
          {campaign.deliveryDate && <Caption1 className={styles.detail}>{formatDateTime(campaign.deliveryDate)}</Caption1>}
          <Caption1 className={styles.detail}>
            {campaign.jobsSent} / {campaign.contactCount} recipients ({campaign.jobsFailed} failed)
          </Caption1>
        </>
      )}
      <Caption1 className={styles.detail}>
        Last edited: on {formatDateTime(campaign.updatedAt)}
        {campaign.updatedByEmail ? ` by ${campaign.updatedByEmail}` : ''}
      </Caption1>
    </div>
  );
}
