import { Body1, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { Campaign, CampaignOverviewStats } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { EmailFrame, formatDateTime, RouterLink } from '@mailroom/ui';
import { CampaignOutcomes } from './CampaignOutcomes';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { SendingProgress, sendingProgress } from './SendingProgress';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  sent: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  details: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    margin: 0,
  },
  term: { fontWeight: tokens.fontWeightSemibold },
  value: { margin: 0, overflowWrap: 'anywhere' },
  frame: { height: '600px' },
  empty: { color: tokens.colorNeutralForeground2 },
});

/**
 * The report's first tab: who it went to, how far sending is, what became of the mails (figures,
 * timeline, domains: an addition to the spec), and the html that was sent.
 */
export function OverviewTab({ campaign, stats }: { campaign: Campaign; stats: CampaignOverviewStats }) {
  const styles = useStyles();
  const delivered = formatDateTime(campaign.deliveryDate);
  return (
    <div className={styles.root}>
      <div className={styles.sent}>
        <Text size={500} weight="semibold">
          {`Sent to: ${stats.jobsSent} / ${stats.totalContactsCount} Recipients (${stats.jobsFailed} failed)`}
        </Text>
        <CampaignStatusBadge campaign={campaign} />
      </div>
      {campaign.status === 'SENDING' && (
        <SendingProgress value={sendingProgress(stats.jobsSent, stats.jobsFailed, campaign.contactCount)} />
      )}
      <CampaignOutcomes campaignId={campaign.id} sending={campaign.status === 'SENDING'} />
      <dl className={styles.details}>
        <dt className={styles.term}>Audience</dt>
        <dd className={styles.value}>
          {campaign.audienceId !== null && campaign.audienceName ? (
            <RouterLink to={`${REMOTES.audiences.basePath}/${campaign.audienceId}`}>{campaign.audienceName}</RouterLink>
          ) : (
            (campaign.audienceName ?? 'None')
          )}
        </dd>
        <dt className={styles.term}>Subject</dt>
        <dd className={styles.value}>{campaign.subject || 'None'}</dd>
        <dt className={styles.term}>Delivered</dt>
        <dd className={styles.value}>{delivered || 'Not delivered yet'}</dd>
      </dl>
      {campaign.html ? (
        <EmailFrame className={styles.frame} html={campaign.html} title="Campaign email" />
      ) : (
        <Body1 className={styles.empty}>This campaign has no content to preview.</Body1>
      )}
    </div>
  );
}
