import { Spinner, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type Contact } from '@mailroom/api-client';
import { EmailFrame, ErrorPanel, FullScreenDialog } from '@mailroom/ui';
import { useState } from 'react';
import type { RenderParams, ValidateParams } from '../api/keys';
import { useAudienceFieldKeys, useCampaignValidation, usePreviewContacts, useRenderedEmail, useSuppressedContacts } from '../api/preview';
import { recipientsName, type CampaignDraft } from '../utils/draft';
import { PreviewContactsTable } from './PreviewContactsTable';
import { ValidationSummary } from './ValidationSummary';

const useStyles = makeStyles({
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingHorizontalXL,
    flexGrow: 1,
    '@media (min-width: 900px)': { gridTemplateColumns: 'minmax(280px, 2fr) minmax(0, 3fr)' },
  },
  side: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
  details: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    '& dt': { fontWeight: tokens.fontWeightSemibold },
    '& dd': { margin: 0, overflowWrap: 'anywhere' },
  },
  email: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minHeight: '480px' },
  frame: { height: '100%', minHeight: '480px' },
});

export interface PreviewDialogProps {
  draft: CampaignDraft;
  /** A follow-up: its id and whom it goes to; the preview reads its recipients instead of the audience's contacts. */
  followUp?: { campaignId: number; label: string; recipientCount: number } | null;
  onClose: () => void;
}

/**
 * The full-screen preview (docs/product.md, Campaign editor): the email as rendered for one contact, the audience's
 * contacts to choose that contact from, subject, preview text and audience, and the validation banner
 * with the contacts whose data lacks a field the email uses.
 */
export function PreviewDialog({ draft, followUp = null, onClose }: PreviewDialogProps) {
  const styles = useStyles();
  const templateId = draft.template!.id;
  const audienceId = draft.audience?.id ?? null;
  const subject = draft.subject.trim();
  const previewText = draft.previewText.trim();
  const texts = { ...(subject ? { subject } : {}), ...(previewText ? { previewText } : {}) };

  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const contacts = usePreviewContacts(audienceId, { page, limit: pageSize }, followUp?.campaignId ?? null);

  // The email is shown for the first contact until another is chosen; without contacts, tags stay empty.
  const [shown, setShown] = useState<Contact | null>(null);
  const firstContact = contacts.data?.items[0] ?? null;
  if (shown === null && firstContact) setShown(firstContact);
  const waitingForContacts = audienceId !== null && contacts.isPending;
  const contact = shown ?? firstContact;
  const renderParams: RenderParams | null = waitingForContacts
    ? null
    : { templateId, ...(contact ? { contactId: contact.id } : {}), ...texts };
  const rendered = useRenderedEmail(renderParams);

  const validateParams: ValidateParams | null =
    audienceId === null ? null : { templateId, audienceId, ...(followUp ? { campaignId: followUp.campaignId } : {}), ...texts };
  const validation = useCampaignValidation(validateParams);
  // A follow-up's recipients were chosen without the suppressed, and a segment's count leaves them out too: the
  // audience's count would say the wrong people.
  const withoutSuppressed = followUp !== null || draft.segment !== null;
  const suppressed = useSuppressedContacts(withoutSuppressed ? null : audienceId);
  const fieldKeys = useAudienceFieldKeys(audienceId);

  return (
    <FullScreenDialog title="Preview Campaign" closeLabel="Close preview" onClose={onClose}>
      <div className={styles.layout}>
        <div className={styles.side}>
          <dl className={styles.details}>
            <dt>Subject</dt>
            <dd>{rendered.data?.subject ?? subject}</dd>
            <dt>Preview text</dt>
            <dd>{rendered.data?.previewText ?? previewText}</dd>
            <dt>Audience</dt>
            <dd>{draft.audience ? recipientsName(draft) : 'No audience chosen'}</dd>
            {followUp && (
              <>
                <dt>To</dt>
                <dd>
                  {followUp.label} ({followUp.recipientCount})
                </dd>
              </>
            )}
            {contact && (
              <>
                <dt>Shown for</dt>
                <dd>{contact.email}</dd>
              </>
            )}
          </dl>
          <ValidationSummary
            validation={validateParams ? validation : null}
            suppressed={audienceId === null || withoutSuppressed ? null : suppressed}
            fieldKeys={fieldKeys.data ?? null}
          />
          {audienceId !== null && (
            <section aria-labelledby="preview-contacts-title">
              <Subtitle2 as="h3" id="preview-contacts-title">
                {followUp ? 'Recipients' : 'Contacts'}
              </Subtitle2>
              <PreviewContactsTable
                contacts={contacts}
                page={page}
                pageSize={pageSize}
                onPageChange={setPage}
                onPageSizeChange={(size) => {
                  setPageSize(size);
                  setPage(1);
                }}
                shownId={contact?.id ?? null}
                onShow={setShown}
              />
            </section>
          )}
        </div>
        <div className={styles.email}>
          {rendered.isError ? (
            <ErrorPanel
              title="Failed to render the email"
              message={errorMessage(rendered.error, 'Failed to render the email')}
              onRetry={() => void rendered.refetch()}
            />
          ) : rendered.data ? (
            <>
              {rendered.isFetching && <Spinner size="tiny" label="Rendering..." />}
              <EmailFrame
                className={styles.frame}
                html={rendered.data.template}
                title={contact ? `Email as ${contact.email} receives it` : 'Email preview'}
              />
            </>
          ) : (
            <Spinner label="Rendering the email..." />
          )}
          {!contact && rendered.data && <Text size={200}>Merge tags are left empty: there is no contact to fill them from.</Text>}
        </div>
      </div>
    </FullScreenDialog>
  );
}
