import { Accordion, Button, Field, Input, MessageBar, MessageBarBody, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { EyeRegular } from '@fluentui/react-icons/svg/eye';
import { MailRegular } from '@fluentui/react-icons/svg/mail';
import { errorMessage, type Campaign } from '@mailroom/api-client';
import { CAMPAIGN_STATUS_LABELS } from '@mailroom/api-client/labels';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import { CampaignStatusBadge, formatInMemberZone, RouterLink, RoleGate, useRoleAllows } from '@mailroom/ui';
import { useCallback, useState } from 'react';
import { useBeforeUnload, useNavigate } from 'react-router-dom';
import { useAuthorizedSenders, useSaveCampaign } from '../api/campaign';
import { draftOf, followUpOf, updateInputOf, type CampaignDraft } from '../utils/draft';
import { PRESEND_MESSAGES, presendError } from '../utils/presend';
import { AbTestSection } from './AbTestSection';
import { AudiencePickerDialog } from './AudiencePickerDialog';
import { ContentSection } from './ContentSection';
import { ErrorDialog } from './ErrorDialog';
import { FromSection } from './FromSection';
import { PreviewDialog } from './PreviewDialog';
import { SendFlow } from './SendFlow';
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

/** The editor's own dialog (the send flow has its own): at most one at a time. */
type EditorDialog =
  | { kind: 'audience-picker' }
  | { kind: 'template-picker' }
  | { kind: 'error'; message: string }
  | { kind: 'test-email' }
  | { kind: 'preview' };

const SECTIONS = ['to', 'from', 'subject', 'content'] as const;

/** The editor's form: the campaign's name and four sections, saved by Finish later and by Send. */
export function CampaignEditor({ campaign }: { campaign: Campaign }) {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<CampaignDraft>(() => draftOf(campaign));
  const [dialog, setDialog] = useState<EditorDialog | null>(null);
  const save = useSaveCampaign(campaign.id);
  const senders = useAuthorizedSenders();
  /** Send or Schedule is under way (see SendFlow): Finish later waits for it. */
  const [sendFlowBusy, setSendFlowBusy] = useState(false);

  const editable = campaign.status === 'DRAFT';
  /** A viewer reads a draft but cannot change it (issue 27): its fields are disabled as a sent campaign's are. */
  const mayEdit = useRoleAllows('editor');
  const fieldsDisabled = !editable || !mayEdit;
  const followUp = followUpOf(campaign);
  const scheduled = campaign.status === 'SCHEDULED';
  /** Send approval (issue 27): a request waits, read-only, or the last one was declined. */
  const awaiting = campaign.status === 'AWAITING_APPROVAL';
  const declined = editable && campaign.approval?.state === 'DECLINED' ? campaign.approval : null;
  const busy = save.isPending || sendFlowBusy;
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
          <RoleGate needs="editor" action="save campaigns">
            {(lock) => (
              <Button disabled={!editable || busy || nameBlank} onClick={() => void finishLater()} {...lock}>
                Finish later
              </Button>
            )}
          </RoleGate>
          <SendFlow
            campaign={campaign}
            draft={draft}
            followUp={followUp}
            saveDraft={saveDraft}
            disabled={!editable || save.isPending || nameBlank}
            onBusyChange={setSendFlowBusy}
          />
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
      {awaiting && campaign.approval && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            {campaign.approval.requestedByEmail} asked on {formatInMemberZone(campaign.approval.requestedAt)} for approval to{' '}
            {campaign.approval.at ? `send it on ${formatInMemberZone(campaign.approval.at)}` : 'send it now'}. It cannot be edited while it
            waits: another member approves or declines it, or the request is withdrawn.
          </MessageBarBody>
        </MessageBar>
      )}
      {declined && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            {declined.answeredByEmail} declined the approval request: “{declined.reason}”. Change the campaign and request approval again.
          </MessageBarBody>
        </MessageBar>
      )}
      {editable && campaign.errorMessage && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>{campaign.errorMessage}</MessageBarBody>
        </MessageBar>
      )}
      {!editable && !scheduled && !awaiting && (
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
          disabled={fieldsDisabled}
          onChange={(_, data) => update({ name: data.value })}
        />
      </Field>

      <div className={styles.actions}>
        <RoleGate needs="editor" action="send test emails">
          {(lock) => (
            <Button icon={<MailRegular />} disabled={!editable} onClick={openTestEmail} {...lock}>
              Send test email
            </Button>
          )}
        </RoleGate>
        <Button icon={<EyeRegular />} onClick={openPreview}>
          Preview Campaign
        </Button>
      </div>

      {/* The sections still open and close when read-only: only what edits the campaign is disabled. */}
      <Accordion multiple collapsible defaultOpenItems={editable ? openAtStart(draft) : [...SECTIONS]}>
        <ToSection
          audience={draft.audience}
          segment={draft.segment}
          onSegmentChange={(segment) => update({ segment })}
          followUp={followUp}
          disabled={fieldsDisabled}
          onChoose={() => setDialog({ kind: 'audience-picker' })}
        />
        <FromSection fromName={draft.fromName} fromEmail={draft.fromEmail} disabled={fieldsDisabled} onChange={update} />
        <SubjectSection subject={draft.subject} previewText={draft.previewText} disabled={fieldsDisabled} onChange={update} />
        <ContentSection template={draft.template} disabled={fieldsDisabled} onChoose={() => setDialog({ kind: 'template-picker' })} />
        <AbTestSection campaignId={campaign.id} disabled={fieldsDisabled} />
      </Accordion>

      {dialog?.kind === 'audience-picker' && (
        <AudiencePickerDialog
          selectedId={draft.audience?.id ?? null}
          onClose={closeDialog}
          onSelect={(picked) => {
            // A segment belongs to its audience: another audience starts with the whole of it.
            update({ audience: { id: picked.id, name: picked.name }, ...(picked.id === draft.audience?.id ? {} : { segment: null }) });
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
      {/* Kept mounted (it closes itself on success): see TestEmailDialog. */}
      <TestEmailDialog
        open={dialog?.kind === 'test-email'}
        campaignId={campaign.id}
        message={
          draft.template
            ? {
                fromEmail: draft.fromEmail,
                fromName: draft.fromName.trim(),
                subject: draft.subject.trim(),
                ...(draft.previewText.trim() ? { previewText: draft.previewText.trim() } : {}),
                templateId: draft.template.id,
                ...(draft.audience ? { audienceId: draft.audience.id } : {}),
              }
            : null
        }
        onClose={closeDialog}
      />
      {dialog?.kind === 'preview' && <PreviewDialog draft={draft} followUp={followUp} onClose={closeDialog} />}
    </section>
  );
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
