import { Body1, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { Campaign, CampaignOverviewStats } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { EmailFrame, formatDateTime, formatInMemberZone, RouterLink } from '@mailroom/ui';
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
  const late = startedLate(campaign.scheduledAt, campaign.deliveryDate);
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
        {campaign.scheduledAt && (
          <>
            <dt className={styles.term}>Planned</dt>
            <dd className={styles.value}>{formatInMemberZone(campaign.scheduledAt)}</dd>
          </>
        )}
        <dt className={styles.term}>Delivered</dt>
        <dd className={styles.value}>
          {delivered || 'Not delivered yet'}
          {late && ` (started ${late} after the planned time)`}
        </dd>
      </dl>
      {campaign.html ? (
        <EmailFrame className={styles.frame} html={campaign.html} title="Campaign email" />
      ) : (
        <Body1 className={styles.empty}>This campaign has no content to preview.</Body1>
      )}
    </div>
  );
}

/**
 * How late a scheduled campaign started, when that is a minute or more (a worker or the database was
 * down at the time); null otherwise. The sweep starts a campaign within seconds of its time.
 */
export function startedLate(scheduledAt: string | null | undefined, deliveryDate: string | null): string | null {
  if (!scheduledAt || !deliveryDate) return null;
  const minutes = Math.floor((Date.parse(deliveryDate) - Date.parse(scheduledAt)) / 60_000);
  if (!(minutes >= 1)) return null;
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
}
