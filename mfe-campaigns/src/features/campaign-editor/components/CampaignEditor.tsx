import {
  Accordion,
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Title1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { EyeRegular } from '@fluentui/react-icons/svg/eye';
import { MailRegular } from '@fluentui/react-icons/svg/mail';
import { SendRegular } from '@fluentui/react-icons/svg/send';
import { errorMessage, type Audience, type Campaign, type SuppressedContacts } from '@mailroom/api-client';
import { CAMPAIGN_STATUS_LABELS, followUpRecipientsLabel } from '@mailroom/api-client/labels';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import { CampaignStatusBadge, formatInMemberZone, RouterLink } from '@mailroom/ui';
import { useCallback, useState } from 'react';
import { useBeforeUnload, useNavigate } from 'react-router-dom';
import {
  useAuthorizedSenders,
  useFetchAudience,
  useFetchReachedRecipients,
  useFetchSuppressedContacts,
  useSaveCampaign,
  useScheduleCampaign,
  useSendCampaign,
  useUnscheduleCampaign,
} from '../api/campaign';
import { draftOf, updateInputOf, type CampaignDraft } from '../utils/draft';
import { PRESEND_MESSAGES, presendError, reachedNote } from '../utils/presend';
import { AudiencePickerDialog } from './AudiencePickerDialog';
import { ContentSection } from './ContentSection';
import { ErrorDialog } from './ErrorDialog';
import { FromSection } from './FromSection';
import { PreviewDialog } from './PreviewDialog';
import { ScheduleDialog } from './ScheduleDialog';
import { ConfirmSendDialog, InvalidContactsDialog } from './SendDialogs';
import { SubjectSection } from './SubjectSection';
import { TemplatePickerDialog } from './TemplatePickerDialog';
import { TestEmailDialog } from './TestEmailDialog';
import { ToSection } from './ToSection';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, maxWidth: '960px' },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  title: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  name: { width: '100%', maxWidth: '480px' },
});

/** The dialog the editor shows: at most one at a time, each rendered by the editor itself. */
type EditorDialog =
  | { kind: 'audience-picker' }
  | { kind: 'template-picker' }
  | { kind: 'error'; message: string }
  | { kind: 'test-email' }
  | { kind: 'preview' }
  | { kind: 'schedule-picker' }
  // `at`: the same warning and confirmation for a schedule (an addition to the spec) as for Send.
  | { kind: 'invalid-contacts'; audience: Audience; suppressed: SuppressedContacts | null; at?: Date | undefined }
  | {
      kind: 'confirm-send';
      audienceName: string;
      recipients: number | null;
      suppressed: SuppressedContacts | null;
      followUpLabel?: string;
      /** A follow-up's note on the recipients its send leaves out (reached by the original since). */
      droppedNote?: string | null;
      at?: Date | undefined;
    };

const SECTIONS = ['to', 'from', 'subject', 'content'] as const;

/** The editor's form: the campaign's name and four sections, saved by Finish later and by Send. */
export function CampaignEditor({ campaign }: { campaign: Campaign }) {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<CampaignDraft>(() => draftOf(campaign));
  const [dialog, setDialog] = useState<EditorDialog | null>(null);
  const save = useSaveCampaign(campaign.id);
  const send = useSendCampaign(campaign.id);
  const schedule = useScheduleCampaign(campaign.id);
  const unschedule = useUnscheduleCampaign(campaign.id);
  const senders = useAuthorizedSenders();
  const fetchAudience = useFetchAudience();
  const fetchSuppressed = useFetchSuppressedContacts();
  const fetchReached = useFetchReachedRecipients();

  const editable = campaign.status === 'DRAFT';
  // A follow-up goes to the people frozen when it was made: the To section, preview and confirmation all name them.
  const followUp = campaign.followUp
    ? {
        campaignId: campaign.id,
        label: followUpRecipientsLabel(campaign.followUp.recipients, campaign.followUp.campaignName),
        recipients: campaign.followUp.recipients,
        campaignName: campaign.followUp.campaignName,
        recipientCount: campaign.followUp.recipientCount,
      }
    : null;
  const scheduled = campaign.status === 'SCHEDULED';
  const [preparing, setPreparing] = useState<'send' | 'schedule' | null>(null);
  const preparingSend = preparing !== null;
  const busy = save.isPending || preparingSend || send.isPending || schedule.isPending || unschedule.isPending;
  const nameBlank = draft.name.trim() === '';
  const update = (change: Partial<CampaignDraft>) => setDraft((current) => ({ ...current, ...change }));

  // Closing or reloading the tab with unsaved changes asks first (the browser's own prompt).
  const unsaved = editable && JSON.stringify(updateInputOf(draft)) !== JSON.stringify(updateInputOf(draftOf(campaign)));
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (unsaved) event.preventDefault();
      },
      [unsaved],
    ),
  );

  /** Saves the whole draft; a failure is told in a toast, never lost silently. */
  const saveDraft = async (): Promise<boolean> => {
    if (nameBlank) return false;
    try {
      await save.mutateAsync(updateInputOf(draft));
      return true;
    } catch (error) {
      notify('error', errorMessage(error, 'Failed to save the campaign'));
      return false;
    }
  };

  const finishLater = async () => {
    if (await saveDraft()) void navigate(basePath);
  };

  // Send (docs/product.md, the screens and their states and 5): save, the pre-send checks in order, the invalid-contacts warning, then the confirmation.
  // Schedule runs the same steps, the picker between the checks and the warning (`at` carries the time).
  const startSend = async () => {
    setPreparing('send');
    try {
      if (await saveAndCheck()) await warnThenConfirm();
    } finally {
      setPreparing(null);
    }
  };

  const startSchedule = async () => {
    setPreparing('schedule');
    try {
      if (await saveAndCheck()) setDialog({ kind: 'schedule-picker' });
    } finally {
      setPreparing(null);
    }
  };

  /** Saves, then runs the pre-send checks; a failed check is shown in the error dialog. */
  const saveAndCheck = async (): Promise<boolean> => {
    if (!(await saveDraft())) return false;
    const problem = presendError(draft, senders.data);
    if (problem) setDialog({ kind: 'error', message: problem });
    return problem === null;
  };

  /** Reads the audience afresh: its invalid contacts are warned of, then the confirmation counts the recipients. */
  const warnThenConfirm = async (at?: Date) => {
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
      });
      return;
    }
    const { id, name } = draft.audience!;
    const [read, counted] = await Promise.allSettled([fetchAudience(id), fetchSuppressed(id)]);
    // The confirmation still opens without a count that could not be read (docs/product.md, Messages and behaviour worth knowing), but the member is told.
    if (read.status === 'rejected') notify('error', errorMessage(read.reason, 'Failed to load the audience'));
    else if (counted.status === 'rejected') notify('error', errorMessage(counted.reason, 'Failed to count the suppressed contacts'));
    const audience = read.status === 'fulfilled' ? read.value : null;
    const suppressed = counted.status === 'fulfilled' ? counted.value : null;
    if (audience && audience.numberOfContactsWithErrors > 0) setDialog({ kind: 'invalid-contacts', audience, suppressed, at });
    else setDialog(confirmFor(audience, name, suppressed, at));
  };

  const pickTime = async (at: Date) => {
    setPreparing('schedule');
    try {
      await warnThenConfirm(at);
    } finally {
      setPreparing(null);
    }
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

  const cancelSchedule = () =>
    unschedule.mutate(undefined, {
      onSuccess: () => notify('success', `The schedule of ${draft.name.trim()} is cancelled; it is a draft again`),
      onError: (error) => notify('error', errorMessage(error, 'Failed to cancel the schedule')),
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

  const openTestEmail = () => {
    const problem = presendError(draft, senders.data, { needsAudience: false });
    setDialog(problem ? { kind: 'error', message: problem } : { kind: 'test-email' });
  };

  const openPreview = () => setDialog(draft.template ? { kind: 'preview' } : { kind: 'error', message: PRESEND_MESSAGES.template });

  const closeDialog = () => setDialog(null);

  return (
    <section className={styles.root} aria-labelledby="campaign-editor-title">
      <div className={styles.header}>
        <div className={styles.title}>
          <Title1 as="h1" id="campaign-editor-title">
            {editable ? 'Draft Email' : 'Campaign'}
          </Title1>
          <CampaignStatusBadge status={campaign.status} errorMessage={campaign.errorMessage} neutralUnlessSent />
        </div>
        <div className={styles.actions}>
          <Button disabled={!editable || busy || nameBlank} onClick={() => void finishLater()}>
            Finish later
          </Button>
          {scheduled ? (
            <Button
              appearance="primary"
              icon={unschedule.isPending ? <Spinner size="tiny" /> : undefined}
              disabled={busy}
              onClick={cancelSchedule}
            >
              Cancel schedule
            </Button>
          ) : (
            <>
              <Button
                icon={preparing === 'schedule' || schedule.isPending ? <Spinner size="tiny" /> : undefined}
                disabled={!editable || busy || nameBlank}
                onClick={() => void startSchedule()}
              >
                Schedule
              </Button>
              <Button
                appearance="primary"
                icon={preparing === 'send' || send.isPending ? <Spinner size="tiny" /> : <SendRegular />}
                disabled={!editable || busy || nameBlank}
                onClick={() => void startSend()}
              >
                Send
              </Button>
            </>
          )}
        </div>
      </div>

      {scheduled && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            This campaign is scheduled for {formatInMemberZone(campaign.scheduledAt)} and cannot be edited. Cancel the schedule to change
            it, send it now or delete it.
          </MessageBarBody>
        </MessageBar>
      )}
      {editable && campaign.errorMessage && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>{campaign.errorMessage}</MessageBarBody>
        </MessageBar>
      )}
      {!editable && !scheduled && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            This campaign is {CAMPAIGN_STATUS_LABELS[campaign.status].toLowerCase()} and can no longer be edited.{' '}
            <RouterLink to={`${REMOTES.reports.basePath}/${campaign.id}`} inline>
              View report
            </RouterLink>
          </MessageBarBody>
        </MessageBar>
      )}

      <Field
        className={styles.name}
        label="Campaign name"
        validationState={nameBlank ? 'error' : 'none'}
        validationMessage={nameBlank ? 'Fill your campaign name' : undefined}
      >
        <Input
          size="large"
          appearance="underline"
          value={draft.name}
          maxLength={200}
          disabled={!editable}
          onChange={(_, data) => update({ name: data.value })}
        />
      </Field>

      <div className={styles.actions}>
        <Button icon={<MailRegular />} disabled={!editable} onClick={openTestEmail}>
          Send test email
        </Button>
        <Button icon={<EyeRegular />} onClick={openPreview}>
          Preview Campaign
        </Button>
      </div>

      {/* The sections still open and close when read-only: only what edits the campaign is disabled. */}
      <Accordion multiple collapsible defaultOpenItems={editable ? openAtStart(draft) : [...SECTIONS]}>
        <ToSection
          audience={draft.audience}
          followUp={followUp}
          disabled={!editable}
          onChoose={() => setDialog({ kind: 'audience-picker' })}
        />
        <FromSection fromName={draft.fromName} fromEmail={draft.fromEmail} disabled={!editable} onChange={update} />
        <SubjectSection subject={draft.subject} previewText={draft.previewText} disabled={!editable} onChange={update} />
        <ContentSection template={draft.template} disabled={!editable} onChoose={() => setDialog({ kind: 'template-picker' })} />
      </Accordion>

      {dialog?.kind === 'audience-picker' && (
        <AudiencePickerDialog
          selectedId={draft.audience?.id ?? null}
          onClose={closeDialog}
          onSelect={(picked) => {
            update({ audience: { id: picked.id, name: picked.name } });
            closeDialog();
          }}
        />
      )}
      {dialog?.kind === 'template-picker' && (
        <TemplatePickerDialog
          selectedId={draft.template?.id ?? null}
          onClose={closeDialog}
          onSelect={(picked) => {
            update({ template: { id: picked.id, name: picked.name, preview: picked.preview } });
            closeDialog();
          }}
        />
      )}
      {dialog?.kind === 'error' && <ErrorDialog message={dialog.message} onClose={closeDialog} />}
      {dialog?.kind === 'test-email' && (
        <TestEmailDialog
          message={{
            fromEmail: draft.fromEmail,
            fromName: draft.fromName.trim(),
            subject: draft.subject.trim(),
            ...(draft.previewText.trim() ? { previewText: draft.previewText.trim() } : {}),
            templateId: draft.template!.id,
            ...(draft.audience ? { audienceId: draft.audience.id } : {}),
          }}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'preview' && <PreviewDialog draft={draft} followUp={followUp} onClose={closeDialog} />}
      {dialog?.kind === 'schedule-picker' && <ScheduleDialog onPick={(at) => void pickTime(at)} onCancel={closeDialog} />}
      {dialog?.kind === 'invalid-contacts' && (
        <InvalidContactsDialog
          audience={dialog.audience}
          onCancel={closeDialog}
          onProceed={() => setDialog(confirmFor(dialog.audience, dialog.audience.name, dialog.suppressed, dialog.at))}
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
          busy={send.isPending || schedule.isPending}
          onConfirm={() => (dialog.at ? confirmSchedule(dialog.at) : confirmSend())}
          onCancel={closeDialog}
        />
      )}
    </section>
  );
}

function confirmFor(audience: Audience | null, audienceName: string, suppressed: SuppressedContacts | null, at?: Date): EditorDialog {
  return {
    kind: 'confirm-send',
    at,
    audienceName: audience?.name ?? audienceName,
    recipients: audience ? Math.max(0, audience.numberOfContacts - audience.numberOfContactsWithErrors) : null,
    suppressed,
  };
}

/** The sections still to fill are open when the editor opens; a complete draft opens them all closed. */
function openAtStart(draft: CampaignDraft): string[] {
  const done = {
    to: draft.audience !== null,
    from: draft.fromName.trim() !== '' && draft.fromEmail !== '',
    subject: draft.subject.trim() !== '',
    content: draft.template !== null,
  };
  return SECTIONS.filter((section) => !done[section]);
}
