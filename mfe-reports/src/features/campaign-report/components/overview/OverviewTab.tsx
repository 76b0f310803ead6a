import { Body1, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { Campaign, CampaignOverviewStats } from '@mailroom/api-client';
import { ruleToWords } from '@mailroom/api-client/segments';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { CampaignStatusBadge, counted, EmailFrame, formatDateTime, formatInMemberZone, RouterLink } from '@mailroom/ui';
import { AbTestPanel } from '../ab-test/AbTestPanel';
import { CampaignOutcomes } from './CampaignOutcomes';
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
  const started = formatDateTime(campaign.deliveryDate);
  const delay = startDelay(campaign.scheduledAt, campaign.deliveryDate);
  return (
    <div className={styles.root}>
      <div className={styles.sent}>
        <Text size={500} weight="semibold">
          {`Sent to: ${stats.jobsSent} / ${stats.totalContactsCount} Recipients (${stats.jobsFailed} failed)`}
        </Text>
        <CampaignStatusBadge
          status={campaign.status}
          errorMessage={campaign.errorMessage}
          quotaPausedUntil={campaign.quotaPausedUntil}
          pausedFor={campaign.pausedFor}
        />
      </div>
      {campaign.status === 'SENDING' && (
        <SendingProgress value={sendingProgress(stats.jobsSent, stats.jobsFailed, campaign.contactCount)} />
      )}
      <AbTestPanel campaignId={campaign.id} />
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
        {/* Once sending started, the segment's name and rule are as they were at send time (issue 26). */}
        {campaign.segment && (
          <>
            <dt className={styles.term}>Segment</dt>
            <dd className={styles.value}>
              <Text weight="semibold">{campaign.segment.name}</Text>: contacts who match {ruleToWords(campaign.segment.rule)}
            </dd>
          </>
        )}
        <dt className={styles.term}>Subject</dt>
        <dd className={styles.value}>{campaign.subject || 'None'}</dd>
        {campaign.scheduledAt && (
          <>
            <dt className={styles.term}>Planned</dt>
            <dd className={styles.value}>{formatInMemberZone(campaign.scheduledAt)}</dd>
          </>
        )}
        {/* deliveryDate is when sending started, not a delivery: the Delivered figure counts SES's delivery events. */}
        <dt className={styles.term}>Started</dt>
        <dd className={styles.value}>
          {started || 'Not started yet'}
          {delay && ` (${delay})`}
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
 * How late a scheduled campaign started, e.g. '12 seconds after the planned time' or '2 hours 5 minutes
 * after the planned time'; 'on time' within a second (the sweep runs each second); null when it was not
 * scheduled or has not started. A start a worker or database outage held up shows how long it waited.
 */
export function startDelay(scheduledAt: string | null | undefined, deliveryDate: string | null): string | null {
  if (!scheduledAt || !deliveryDate) return null;
  const seconds = Math.floor((Date.parse(deliveryDate) - Date.parse(scheduledAt)) / 1000);
  if (Number.isNaN(seconds)) return null;
  if (seconds < 1) return 'on time';
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const late =
    minutes < 1
      ? counted(seconds, 'second')
      : hours < 1
        ? counted(minutes, 'minute')
        : `${counted(hours, 'hour')}${minutes % 60 ? ` ${counted(minutes % 60, 'minute')}` : ''}`;
  return `${late} after the planned time`;
}
