import { ProgressBar, makeStyles } from '@fluentui/react-components';
import type { CampaignSummary } from '@mailroom/api-client';
import { sendingProgress } from '../utils/rates';

const useStyles = makeStyles({
  progress: { width: '120px' },
});

/** The progress bar under a sending campaign's chip: how much of its audience has been sent to (or failed). */
export function CampaignSendingProgress({ campaign }: { campaign: CampaignSummary }) {
  const styles = useStyles();
  const progress = sendingProgress(campaign.jobsSent, campaign.jobsFailed, campaign.contactCount);
  return (
    <ProgressBar
      className={styles.progress}
      value={progress ?? undefined}
      aria-label={progress === null ? `${campaign.name}: sending` : `${campaign.name}: ${Math.round(progress * 100)}% sent`}
    />
  );
}
