import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { ArrowRepeatAllRegular } from '@fluentui/react-icons';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useOverviewStats, useResendUnconfirmed } from '../../api/report';

/** What UNKNOWN means, in the one sentence the report shows wherever it counts them. */
export const UNKNOWN_EXPLAINED =
  'Unknown: the sending stopped between handing the email to SES and recording its answer, so it may or may not have gone out; an SES delivery or bounce event settles it.';

const emails = (n: number) => `${n} ${n === 1 ? 'email' : 'emails'}`;

/**
 * The campaign's mails of unknown outcome (an addition to the spec): what UNKNOWN means and, for those no SES
 * event confirmed within the set time, 'Resend unconfirmed', a deliberate action that warns of double mails.
 */
export function UnknownOutcomes({ campaignId }: { campaignId: number }) {
  const { notify } = useRemote();
  const overview = useOverviewStats(campaignId);
  const resend = useResendUnconfirmed(campaignId);
  const [confirming, setConfirming] = useState(false);
  const stats = overview.data;
  if (!stats || stats.jobsUnknown === 0) return null;

  return (
    <>
      <MessageBar intent="warning" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>{emails(stats.jobsUnknown)} of unknown outcome</MessageBarTitle>
          {UNKNOWN_EXPLAINED}
          {stats.jobsUnconfirmed > 0 &&
            ` ${emails(stats.jobsUnconfirmed)} still unconfirmed after ${stats.unconfirmedResendAfterMinutes} minutes can be sent again.`}
        </MessageBarBody>
        {stats.jobsUnconfirmed > 0 && (
          <MessageBarActions>
            <Button icon={<ArrowRepeatAllRegular />} onClick={() => setConfirming(true)}>
              Resend unconfirmed
            </Button>
          </MessageBarActions>
        )}
      </MessageBar>
      {confirming && (
        <ConfirmDialog
          open
          title="Resend unconfirmed emails"
          confirmLabel="Resend"
          busy={resend.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            resend.mutate(undefined, {
              onSuccess: ({ message, queued }) => notify(queued > 0 ? 'success' : 'info', message),
              onError: (error) => notify('error', errorMessage(error, 'Failed to resend unconfirmed emails')),
              onSettled: () => setConfirming(false),
            })
          }
        >
          {`${emails(stats.jobsUnconfirmed)} have had no word from SES for ${stats.unconfirmedResendAfterMinutes} minutes or more. Some of these people may already have received this email and will receive it twice. Send them again?`}
        </ConfirmDialog>
      )}
    </>
  );
}
