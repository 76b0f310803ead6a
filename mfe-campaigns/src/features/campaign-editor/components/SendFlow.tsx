import { Button, Spinner } from '@fluentui/react-components';
import { CheckmarkRegular } from '@fluentui/react-icons/svg/checkmark';
import { SendRegular } from '@fluentui/react-icons/svg/send';
import { errorMessage, type Audience, type Campaign, type SuppressedContacts } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { formatInMemberZone, RoleGate } from '@mailroom/ui';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  useApproveCampaign,
  useAuthorizedSenders,
  useDeclineCampaign,
  useFetchAudience,
  useFetchReachedRecipients,
  useFetchSegmentCount,
  useFetchSuppressedContacts,
  useRequestApproval,
  useScheduleCampaign,
  useSendCampaign,
  useUnscheduleCampaign,
  useWithdrawApproval,
} from '../api/campaign';
import { recipientsName, type CampaignDraft, type DraftFollowUp } from '../utils/draft';
import { presendError, reachedNote } from '../utils/presend';
import { DeclineDialog } from './DeclineDialog';
import { ErrorDialog } from './ErrorDialog';
import { ScheduleDialog } from './ScheduleDialog';
import { ConfirmSendDialog, InvalidContactsDialog } from './SendDialogs';

/** The step of the flow on the screen: at most one dialog at a time. */
/** Send approval (issue 27): the flow asks for approval ('request'), or is another member's approval ('approve'). */
type Approval = 'request' | 'approve' | undefined;

type SendFlowDialog =
  | { kind: 'error'; message: string }
  | { kind: 'schedule-picker' }
  | { kind: 'decline' }
  // `at`: the same warning and confirmation for a schedule (an addition to the spec) as for Send.
  | { kind: 'invalid-contacts'; audience: Audience; suppressed: SuppressedContacts | null; at?: Date | undefined; approval?: Approval }
  | {
      kind: 'confirm-send';
      approval?: Approval;
      audienceName: string;
      recipients: number | null;
      suppressed: SuppressedContacts | null;
      followUpLabel?: string;
      /** A follow-up's note on the recipients its send leaves out (reached by the original since). */
      droppedNote?: string | null;
      at?: Date | undefined;
    };

export interface SendFlowProps {
  campaign: Campaign;
  /** What the editor holds: saved, then checked, before anything is sent. */
  draft: CampaignDraft;
  followUp: DraftFollowUp | null;
  /** Saves the editor's draft; false when it could not (the editor has said why). */
  saveDraft: () => Promise<boolean>;
  /** The editor's own reasons to hold Send and Schedule: not a draft, a blank name, a save under way. */
  disabled: boolean;
  /** Whether the flow is under way (preparing, or its send, schedule or cancel posted): the editor holds its own actions meanwhile. */
  onBusyChange: (busy: boolean) => void;
}

/**
 * The editor's Send and Schedule (docs/product.md, Campaign editor): the header's Send and Schedule
 * buttons, or 'Cancel schedule' for a scheduled campaign, and the dialogs between a click and the
 * campaign going out. Send saves, runs the pre-send checks in order (a failed one in the Error dialog),
 * reads the audience afresh to warn of its invalid contacts, then asks with the count of recipients.
 * Schedule (an addition to the spec) runs the same steps with the time picker between the checks and
 * the warning. With send approval (issue 27) on the campaign, Send and Schedule become 'Request approval'
 * and 'Request approval to schedule', the same steps ending in a request; a campaign awaiting approval
 * shows its requester 'Withdraw request', and any other member 'Decline' and 'Approve' (the same warning
 * and count as Send before the approval).
 */
export function SendFlow({ campaign, draft, followUp, saveDraft, disabled, onBusyChange }: SendFlowProps) {
  const { basePath, notify, profile } = useRemote();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<SendFlowDialog | null>(null);
  /** Which action is being prepared (saved, checked, its audience read) until its next dialog opens. */
  const [preparing, setPreparing] = useState<'send' | 'schedule' | null>(null);
  const send = useSendCampaign(campaign.id);
  const schedule = useScheduleCampaign(campaign.id);
  const unschedule = useUnscheduleCampaign(campaign.id);
  const requestApproval = useRequestApproval(campaign.id);
  const withdraw = useWithdrawApproval(campaign.id);
  const approve = useApproveCampaign(campaign.id);
  const decline = useDeclineCampaign(campaign.id);
  /** Send and Schedule ask for approval instead (the API refuses them). */
  const requesting: Approval = campaign.status === 'DRAFT' && campaign.approvalRequired ? 'request' : undefined;
  const waiting = campaign.status === 'AWAITING_APPROVAL' && campaign.approval?.state === 'WAITING' ? campaign.approval : null;
  /** The requester never answers their own request (the API answers 403 too). */
  const mine = waiting !== null && waiting.requestedByEmail.toLowerCase() === profile.email.toLowerCase();
  const senders = useAuthorizedSenders();
  const fetchAudience = useFetchAudience();
  const fetchSuppressed = useFetchSuppressedContacts();
  const fetchReached = useFetchReachedRecipients();
  const fetchSegmentCount = useFetchSegmentCount();

  const preparingSendOrSchedule = preparing !== null;
  const busy =
    preparingSendOrSchedule ||
    send.isPending ||
    schedule.isPending ||
    unschedule.isPending ||
    requestApproval.isPending ||
    withdraw.isPending ||
    approve.isPending ||
    decline.isPending;
  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);

  /** Runs one step of preparing `action`; the button shows its spinner until the step is over. */
  const prepare = async (action: 'send' | 'schedule', step: () => Promise<void>) => {
    setPreparing(action);
    try {
      await step();
    } finally {
      setPreparing(null);
    }
  };

  /** Saves, then runs the pre-send checks; a failed check is shown in the Error dialog. */
  const saveAndCheck = async (): Promise<boolean> => {
    if (!(await saveDraft())) return false;
    const problem = presendError(draft, senders.data);
    if (problem) setDialog({ kind: 'error', message: problem });
    return problem === null;
  };

  const startSend = () =>
    prepare('send', async () => {
      if (await saveAndCheck()) await warnThenConfirm(undefined, requesting);
    });

  /** The approver reads the same warning and count as Send, for the send or the schedule asked. */
  const startApprove = () => prepare('send', () => warnThenConfirm(waiting?.at ? new Date(waiting.at) : undefined, 'approve'));

  const startSchedule = () =>
    prepare('schedule', async () => {
      if (await saveAndCheck()) setDialog({ kind: 'schedule-picker' });
    });

  const pickTime = (at: Date) => prepare('schedule', () => warnThenConfirm(at, requesting));

  /** Reads the audience afresh: its invalid contacts are warned of, then the confirmation counts the recipients. */
  const warnThenConfirm = async (at?: Date, approval?: Approval) => {
    if (followUp) {
      // Its recipients are valid, not suppressed contacts, counted when it was made; those the original
      // has reached since are counted now, as the send will drop them (a failed count: told, and unsaid).
      const reached = await fetchReached(followUp.campaignId).catch((error: unknown) => {
        notify('error', errorMessage(error, 'Failed to count the recipients reached since the follow-up was made'));
        return null;
      });
      setDialog({
        kind: 'confirm-send',
        audienceName: draft.audience!.name,
        recipients: followUp.recipientCount,
        suppressed: null,
        followUpLabel: followUp.label,
        droppedNote: reached ? reachedNote(followUp, reached) : null,
        at,
        approval,
      });
      return;
    }
    if (draft.segment) {
      // A segment's count is of the contacts the send will freeze (valid, not suppressed): no other count is needed.
      const recipients = await fetchSegmentCount(draft.segment.id).catch((error: unknown) => {
        notify('error', errorMessage(error, 'Failed to count the contacts of the segment'));
        return null;
      });
      setDialog({ kind: 'confirm-send', audienceName: recipientsName(draft), recipients, suppressed: null, at, approval });
      return;
    }
    const { id, name } = draft.audience!;
    const [read, counted] = await Promise.allSettled([fetchAudience(id), fetchSuppressed(id)]);
    // The confirmation still opens without a count that could not be read (docs/product.md, Messages and behaviour worth knowing), but the member is told.
    if (read.status === 'rejected') notify('error', errorMessage(read.reason, 'Failed to load the audience'));
    else if (counted.status === 'rejected') notify('error', errorMessage(counted.reason, 'Failed to count the suppressed contacts'));
    const audience = read.status === 'fulfilled' ? read.value : null;
    const suppressed = counted.status === 'fulfilled' ? counted.value : null;
    if (audience && audience.numberOfContactsWithErrors > 0) setDialog({ kind: 'invalid-contacts', audience, suppressed, at, approval });
    else setDialog(confirmFor(audience, name, suppressed, at, approval));
  };

  const confirmSchedule = (at: Date) =>
    schedule.mutate(at, {
      onSuccess: (saved) => {
        notify('success', `Campaign ${draft.name.trim()} is scheduled for ${formatInMemberZone(saved.scheduledAt)}`);
        void navigate(basePath);
      },
      onError: (error) => {
        notify('error', errorMessage(error, 'Failed to schedule the campaign'));
        setDialog(null);
      },
    });

  const confirmSend = () =>
    send.mutate(undefined, {
      onSuccess: () => {
        notify('success', `Campaign ${draft.name.trim()} is being sent`);
        void navigate(basePath);
      },
      onError: (error) => {
        notify('error', errorMessage(error, 'Failed to send the campaign'));
        setDialog(null);
      },
    });

  const cancelSchedule = () =>
    unschedule.mutate(undefined, {
      onSuccess: () => notify('success', `The schedule of ${draft.name.trim()} is cancelled; it is a draft again`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to cancel the schedule')),
    });

  const confirmRequest = (at: Date | undefined) =>
    requestApproval.mutate(at, {
      onSuccess: () => {
        notify('success', `Approval of ${draft.name.trim()} is requested; another member can approve it`);
        setDialog(null);
      },
      onError: (error) => {
        notify('error', errorMessage(error, 'Failed to request approval'));
        setDialog(null);
      },
    });

  const confirmApprove = () =>
    approve.mutate(undefined, {
      onSuccess: ({ message }) => {
        notify('success', message);
        void navigate(basePath);
      },
      onError: (error) => {
        notify('error', errorMessage(error, 'Failed to approve the campaign'));
        setDialog(null);
      },
    });

  const declineWith = (reason: string) =>
    decline.mutate(reason, {
      onSuccess: () => {
        notify('success', `The request is declined; ${waiting?.requestedByEmail ?? 'the requester'} is told why`);
        void navigate(basePath);
      },
      onError: (error) => {
        notify('error', errorMessage(error, 'Failed to decline the request'));
        setDialog(null);
      },
    });

  const withdrawRequest = () =>
    withdraw.mutate(undefined, {
      onSuccess: () => notify('success', `The request is withdrawn; ${draft.name.trim()} is a draft again`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to withdraw the request')),
    });

  const closeDialog = () => setDialog(null);

  return (
    <>
      {waiting && mine ? (
        <Button
          appearance="primary"
          icon={withdraw.isPending ? <Spinner size="tiny" /> : undefined}
          disabled={busy}
          onClick={withdrawRequest}
        >
          Withdraw request
        </Button>
      ) : waiting ? (
        <>
          <RoleGate needs="sender" action="decline a request">
            {(lock) => (
              <Button disabled={busy} onClick={() => setDialog({ kind: 'decline' })} {...lock}>
                Decline
              </Button>
            )}
          </RoleGate>
          <RoleGate needs="sender" action="approve a request">
            {(lock) => (
              <Button
                appearance="primary"
                icon={preparing === 'send' || approve.isPending ? <Spinner size="tiny" /> : <CheckmarkRegular />}
                disabled={busy}
                onClick={() => void startApprove()}
                {...lock}
              >
                Approve
              </Button>
            )}
          </RoleGate>
        </>
      ) : campaign.status === 'SCHEDULED' ? (
        <RoleGate needs="sender" action="cancel a schedule">
          {(lock) => (
            <Button
              appearance="primary"
              icon={unschedule.isPending ? <Spinner size="tiny" /> : undefined}
              disabled={busy}
              onClick={cancelSchedule}
              {...lock}
            >
              Cancel schedule
            </Button>
          )}
        </RoleGate>
      ) : (
        <>
          {/* With send approval, an editor asks and a sender answers; without it, a sender sends. */}
          <RoleGate needs={requesting ? 'editor' : 'sender'} action={requesting ? 'request approval' : 'schedule'}>
            {(lock) => (
              <Button
                icon={preparing === 'schedule' || schedule.isPending ? <Spinner size="tiny" /> : undefined}
                disabled={disabled || busy}
                onClick={() => void startSchedule()}
                {...lock}
              >
                {requesting ? 'Request approval to schedule' : 'Schedule'}
              </Button>
            )}
          </RoleGate>
          <RoleGate needs={requesting ? 'editor' : 'sender'} action={requesting ? 'request approval' : 'send'}>
            {(lock) => (
              <Button
                appearance="primary"
                icon={preparing === 'send' || send.isPending ? <Spinner size="tiny" /> : <SendRegular />}
                disabled={disabled || busy}
                onClick={() => void startSend()}
                {...lock}
              >
                {requesting ? 'Request approval' : 'Send'}
              </Button>
            )}
          </RoleGate>
        </>
      )}

      {dialog?.kind === 'error' && <ErrorDialog message={dialog.message} onClose={closeDialog} />}
      {dialog?.kind === 'schedule-picker' && <ScheduleDialog onPick={(at) => void pickTime(at)} onCancel={closeDialog} />}
      {dialog?.kind === 'invalid-contacts' && (
        <InvalidContactsDialog
          audience={dialog.audience}
          onCancel={closeDialog}
          onProceed={() => setDialog(confirmFor(dialog.audience, dialog.audience.name, dialog.suppressed, dialog.at, dialog.approval))}
        />
      )}
      {dialog?.kind === 'confirm-send' && (
        <ConfirmSendDialog
          audienceName={dialog.audienceName}
          recipients={dialog.recipients}
          suppressed={dialog.suppressed}
          followUpLabel={dialog.followUpLabel}
          droppedNote={dialog.droppedNote}
          at={dialog.at}
          approval={dialog.approval}
          busy={send.isPending || schedule.isPending || requestApproval.isPending || approve.isPending}
          onConfirm={() =>
            dialog.approval === 'request'
              ? confirmRequest(dialog.at)
              : dialog.approval === 'approve'
                ? confirmApprove()
                : dialog.at
                  ? confirmSchedule(dialog.at)
                  : confirmSend()
          }
          onCancel={closeDialog}
        />
      )}
      {dialog?.kind === 'decline' && <DeclineDialog busy={decline.isPending} onDecline={declineWith} onClose={closeDialog} />}
    </>
  );
}

function confirmFor(
  audience: Audience | null,
  audienceName: string,
  suppressed: SuppressedContacts | null,
  at?: Date,
  approval?: Approval,
): SendFlowDialog {
  return {
    kind: 'confirm-send',
    at,
    approval,
    audienceName: audience?.name ?? audienceName,
    recipients: audience ? Math.max(0, audience.numberOfContacts - audience.numberOfContactsWithErrors) : null,
    suppressed,
  };
}
