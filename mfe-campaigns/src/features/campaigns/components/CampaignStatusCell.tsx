import { Button, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type CampaignSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { CampaignStatusBadge, formatInMemberZone, RoleGate } from '@mailroom/ui';
import { lazy, Suspense, useState } from 'react';
import { useContinueCampaign, useStopCampaign } from '../api/campaigns';

// Fetched when first opened, like the list's other dialogs.
const ContinueCampaignDialog = lazy(() =>
  import('./ContinueCampaignDialog').then((module) => ({ default: module.ContinueCampaignDialog })),
);

const StopCampaignDialog = lazy(() => import('./StopCampaignDialog').then((module) => ({ default: module.StopCampaignDialog })));

// Fetched only when a campaign on the page is sending (the progress bar's component is not needed otherwise):
// most lists have none, and the move to /campaigns stays within its budget (tests/bench/bundle.mjs).
const CampaignSendingProgress = lazy(() =>
  import('./CampaignSendingProgress').then((module) => ({ default: module.CampaignSendingProgress })),
);

export const CONTINUE_SUCCESS = 'Campaign will continue sending to remaining contacts.';
export const CONTINUE_FAILURE = 'Failed to continue campaign';
export const STOP_SUCCESS = 'Sending stopped. Continue sending sends to the contacts not sent to yet.';
export const STOP_FAILURE = 'Failed to stop campaign';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalS, minWidth: '120px' },
  // The progress bar's width, kept while its component loads, so the row does not change height twice.
  progress: { width: '120px', minHeight: '2px' },
  when: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
});

/**
 * The status chip (docs/product.md, the screens and their states): Sending with its progress, Sent, and Error with its message as a tooltip and
 * 'Continue sending', which stays disabled while this campaign's continue request runs. A sending campaign paused at the daily quota
 * says until when, with 'Stop sending' (issue 28).
 */
export function CampaignStatusCell({ campaign }: { campaign: CampaignSummary }) {
  const styles = useStyles();
  if (campaign.status === 'SENDING') {
    return (
      <div className={styles.root}>
        <CampaignStatusBadge status="SENDING" quotaPausedUntil={campaign.quotaPausedUntil} pausedFor={campaign.pausedFor} />
        <Suspense fallback={<div className={styles.progress} />}>
          <CampaignSendingProgress campaign={campaign} />
        </Suspense>
        {campaign.quotaPausedUntil && <StopSending campaign={campaign} />}
      </div>
    );
  }
  if (campaign.status === 'SCHEDULED') {
    return (
      <div className={styles.root}>
        <CampaignStatusBadge status="SCHEDULED" />
        <span className={styles.when}>{formatInMemberZone(campaign.scheduledAt)}</span>
      </div>
    );
  }
  if (campaign.status === 'AWAITING_APPROVAL' && campaign.updatedByEmail) {
    // Who asked (the request is the campaign's last change): the reviewer sees whose request it is.
    return (
      <div className={styles.root}>
        <CampaignStatusBadge status="AWAITING_APPROVAL" />
        <span className={styles.when}>Requested by {campaign.updatedByEmail}</span>
      </div>
    );
  }
  if (campaign.status === 'ERROR') {
    return (
      <div className={styles.root}>
        <CampaignStatusBadge status="ERROR" errorMessage={campaign.errorMessage} />
        <ContinueSending campaign={campaign} />
      </div>
    );
  }
  return <CampaignStatusBadge status={campaign.status} />;
}

function ContinueSending({ campaign }: { campaign: CampaignSummary }) {
  const { notify } = useRemote();
  const [confirming, setConfirming] = useState(false);
  const continueCampaign = useContinueCampaign(campaign.id);

  const confirm = () => {
    setConfirming(false);
    continueCampaign.mutate(undefined, {
      onSuccess: () => notify('success', CONTINUE_SUCCESS),
      onError: (error) => notify('error', errorMessage(error, CONTINUE_FAILURE)),
    });
  };

  return (
    <>
      <RoleGate needs="sender" action="continue sending">
        {(lock) => (
          <Button
            size="small"
            disabled={continueCampaign.isPending}
            icon={continueCampaign.isPending ? <Spinner size="extra-tiny" /> : undefined}
            aria-label={`Continue sending ${campaign.name}`}
            onClick={() => setConfirming(true)}
            {...lock}
          >
            Continue sending
          </Button>
        )}
      </RoleGate>
      <Suspense fallback={null}>
        {confirming && <ContinueCampaignDialog onConfirm={confirm} onCancel={() => setConfirming(false)} />}
      </Suspense>
    </>
  );
}

/** A campaign paused at the daily quota resumes by itself; a member who would rather not stops it here. */
function StopSending({ campaign }: { campaign: CampaignSummary }) {
  const { notify } = useRemote();
  const [confirming, setConfirming] = useState(false);
  const stopCampaign = useStopCampaign(campaign.id);

  const confirm = () => {
    setConfirming(false);
    stopCampaign.mutate(undefined, {
      onSuccess: () => notify('success', STOP_SUCCESS),
      onError: (error) => notify('error', errorMessage(error, STOP_FAILURE)),
    });
  };

  return (
    <>
      <RoleGate needs="sender" action="stop sending">
        {(lock) => (
          <Button
            size="small"
            disabled={stopCampaign.isPending}
            icon={stopCampaign.isPending ? <Spinner size="extra-tiny" /> : undefined}
            aria-label={`Stop sending ${campaign.name}`}
            onClick={() => setConfirming(true)}
            {...lock}
          >
            Stop sending
          </Button>
        )}
      </RoleGate>
      <Suspense fallback={null}>{confirming && <StopCampaignDialog onConfirm={confirm} onCancel={() => setConfirming(false)} />}</Suspense>
    </>
  );
}
