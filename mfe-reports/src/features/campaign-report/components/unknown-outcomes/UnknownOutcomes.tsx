import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { ArrowRepeatAllRegular } from '@fluentui/react-icons';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog, RoleGate, counted, plural } from '@mailroom/ui';
import { useState } from 'react';
import { useOverviewStats, useResendUnconfirmed } from '../../api/report';

/** What UNKNOWN means, in the one sentence the report shows wherever it counts them. */
export const UNKNOWN_EXPLAINED =
  'Unknown: the sending stopped between handing the email to SES and recording its answer, so it may or may not have gone out; an SES delivery or bounce event settles it.';

/**
 * The campaign's mails of unknown outcome and, among them, those a resend may take, as one sentence:
 * '8 emails of unknown outcome, 1 of them still unconfirmed after 60 minutes: it can be sent again.'
 */
export function unknownOutcomesSentence(unknown: number, unconfirmed: number, afterMinutes: number): string {
  const lead = `${counted(unknown, 'email')} of unknown outcome`;
  if (unconfirmed <= 0) return `${lead}.`;
  const after = `still unconfirmed after ${counted(afterMinutes, 'minute')}`;
  // The two counts come from one read, so every unconfirmed mail is among the unknown ones.
  const which = unconfirmed >= unknown ? (unknown === 1 ? after : `all ${after}`) : `${unconfirmed} of them ${after}`;
  return `${lead}, ${which}: ${plural(Math.min(unconfirmed, unknown), 'it', 'they')} can be sent again.`;
}

/** The confirmation of 'Resend unconfirmed': how many, since when, and the risk of a second copy. */
export function resendUnconfirmedWarning(unconfirmed: number, afterMinutes: number): string {
  return (
    `${counted(unconfirmed, 'email')} ${plural(unconfirmed, 'has', 'have')} had no word from SES for ${counted(afterMinutes, 'minute')} or more. ` +
    `${plural(unconfirmed, 'Its recipient', 'Some of these people')} may already have received this email and will receive it twice. ` +
    `Send ${plural(unconfirmed, 'it', 'them')} again?`
  );
}

/**
 * The campaign's mails of unknown outcome (an addition to the spec): what UNKNOWN means and, for those no SES
 * event confirmed within the set time, 'Resend unconfirmed', a deliberate action that warns of double mails.
 * Shown on the Overview beside the Unknown figure and on Email Performance above the rows.
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
          <MessageBarTitle>
            {unknownOutcomesSentence(stats.jobsUnknown, stats.jobsUnconfirmed, stats.unconfirmedResendAfterMinutes)}
          </MessageBarTitle>
          {UNKNOWN_EXPLAINED}
        </MessageBarBody>
        {stats.jobsUnconfirmed > 0 && (
          <MessageBarActions>
            <RoleGate needs="sender" action="resend">
              {(lock) => (
                <Button icon={<ArrowRepeatAllRegular />} onClick={() => setConfirming(true)} {...lock}>
                  Resend unconfirmed
                </Button>
              )}
            </RoleGate>
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
          {resendUnconfirmedWarning(stats.jobsUnconfirmed, stats.unconfirmedResendAfterMinutes)}
        </ConfirmDialog>
      )}
    </>
  );
}
