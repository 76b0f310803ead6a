import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowDownloadRegular, SendRegular } from '@fluentui/react-icons';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog, ErrorPanel, PagedTableFooter, RoleGate, useDebouncedValue, type PageSize } from '@mailroom/ui';
import { useState } from 'react';
import {
  useEmailPerformance,
  useExportEmailPerformance,
  useRetryAllFailedJobs,
  useRetryJob,
  useSendToContact,
  useSendToNotSent,
} from '../../api/report';
import { EmailPerformanceFilterBar, filtersOf, NO_FILTER, type FilterSelections } from './EmailPerformanceFilterBar';
import { EmailPerformanceTable } from './EmailPerformanceTable';
import { UnknownOutcomes } from '../unknown-outcomes/UnknownOutcomes';

/** Email performance page sizes and the report's email search debounce (docs/product.md, Limits and constants). */
export const EMAIL_PERFORMANCE_PAGE_SIZES: readonly PageSize[] = [5, 10, 25, 50];
export const SEARCH_DEBOUNCE_MS = 500;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});

type BulkAction = 'retry-all-failed' | 'send-to-not-sent';

/** The report's second tab: one row per contact, filtered and paged by the server, with the sending actions. */
export function EmailPerformanceTab({ campaignId, sending }: { campaignId: number; sending: boolean }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const [emailText, setEmailText] = useState('');
  const [selections, setSelections] = useState<FilterSelections>(NO_FILTER);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [confirming, setConfirming] = useState<BulkAction | null>(null);

  // A new debounced search goes back to page 1 in the same render, so no request is made for the old page.
  const debouncedEmail = useDebouncedValue(emailText, SEARCH_DEBOUNCE_MS).trim();
  const [appliedEmail, setAppliedEmail] = useState(debouncedEmail);
  if (appliedEmail !== debouncedEmail) {
    setAppliedEmail(debouncedEmail);
    setPage(1);
  }

  const filters = filtersOf(appliedEmail, selections);
  const rows = useEmailPerformance(campaignId, { page, limit: pageSize, ...filters }, sending);
  const exportRows = useExportEmailPerformance(campaignId);
  const retryAllFailed = useRetryAllFailedJobs(campaignId);
  const sendToNotSent = useSendToNotSent(campaignId);
  const retryJob = useRetryJob(campaignId);
  const sendToContact = useSendToContact(campaignId);

  // Rows can leave the filter while the page is open (a retry, a delivery): stay on the last page that exists.
  const totalPages = rows.data?.meta.totalPages ?? 0;
  if (!rows.isPlaceholderData && totalPages > 0 && page > totalPages) setPage(totalPages);

  const runExport = () => exportRows.mutate(filters);

  const bulkDialog = (action: BulkAction) =>
    action === 'retry-all-failed'
      ? {
          title: 'Retry All Failed Jobs',
          confirmLabel: 'Retry All',
          text: 'Every failed email of this campaign will be queued to be sent again.',
          mutation: retryAllFailed,
          failure: 'Failed to retry failed jobs',
        }
      : {
          title: 'Send to NOT_SENT Contacts',
          confirmLabel: 'Send to NOT_SENT',
          text:
            'Every valid contact of the audience that has not been sent this campaign yet will be queued. ' +
            'Suppressed contacts (unsubscribed, bounced or complained) are skipped.',
          mutation: sendToNotSent,
          failure: 'Failed to send to NOT_SENT contacts',
        };
  const dialog = confirming && bulkDialog(confirming);

  return (
    <div className={styles.root}>
      {rows.isError && (
        <ErrorPanel message={errorMessage(rows.error, 'Failed to fetch email performance data')} onRetry={() => void rows.refetch()} />
      )}
      {exportRows.isError && (
        <ErrorPanel message={errorMessage(exportRows.error, 'Failed to export email performance data')} onRetry={runExport} />
      )}

      <EmailPerformanceFilterBar
        emailText={emailText}
        onEmailTextChange={setEmailText}
        selections={selections}
        onSelectionsChange={(next) => {
          setSelections(next);
          setPage(1);
        }}
      />
      {selections.sendStatus === 'NOT_SENT' && (
        <MessageBar intent="info">
          <MessageBarBody>Showing all NOT_SENT contacts. This may take a moment to load all data.</MessageBarBody>
        </MessageBar>
      )}
      <UnknownOutcomes campaignId={campaignId} />

      <div className={styles.actions}>
        {/* The rows hold addresses: a viewer exports nothing that does; retries and sends are a sender's (issue 27). */}
        <RoleGate needs="editor" action="export addresses">
          {(lock) => (
            <Button
              icon={exportRows.isPending ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
              disabled={exportRows.isPending}
              onClick={runExport}
              {...lock}
            >
              Export
            </Button>
          )}
        </RoleGate>
        <RoleGate needs="sender" action="retry">
          {(lock) => (
            <Button icon={<ArrowClockwiseRegular />} onClick={() => setConfirming('retry-all-failed')} {...lock}>
              Retry All Failed
            </Button>
          )}
        </RoleGate>
        <RoleGate needs="sender" action="send">
          {(lock) => (
            <Button icon={<SendRegular />} onClick={() => setConfirming('send-to-not-sent')} {...lock}>
              Send to all NOT_SENT contacts
            </Button>
          )}
        </RoleGate>
      </div>

      {rows.isPending ? (
        <Spinner label="Loading email performance..." />
      ) : rows.data ? (
        <div>
          <EmailPerformanceTable
            rows={rows.data.items}
            retryingJobId={retryJob.isPending ? retryJob.variables : undefined}
            sendingContactId={sendToContact.isPending ? sendToContact.variables : undefined}
            onRetryJob={(jobId) =>
              retryJob.mutate(jobId, {
                onSuccess: (message) => notify('success', message),
                onError: (error) => notify('error', errorMessage(error, 'Failed to retry job')),
              })
            }
            onSendToContact={(contactId) =>
              sendToContact.mutate(contactId, {
                onSuccess: (message) => notify('success', message),
                onError: (error) => notify('error', errorMessage(error, 'Failed to send to contact')),
              })
            }
          />
          <PagedTableFooter
            label="Email performance"
            page={page}
            pageSize={pageSize}
            totalItems={rows.data.meta.totalItems}
            pageSizeOptions={EMAIL_PERFORMANCE_PAGE_SIZES}
            onPageChange={setPage}
            onPageSizeChange={(size) => {
              if (size === 'all') return; // not offered: the report has no 'All'
              setPageSize(size);
              setPage(1);
            }}
          />
        </div>
      ) : null}

      {dialog && (
        <ConfirmDialog
          open
          title={dialog.title}
          confirmLabel={dialog.confirmLabel}
          busy={dialog.mutation.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() =>
            dialog.mutation.mutate(undefined, {
              // The server's message is the spec's text with what was queued and skipped, or that there was
              // nothing to do: then it is news, not a success.
              onSuccess: ({ message, queued }) => notify(queued > 0 ? 'success' : 'info', message),
              onError: (error) => notify('error', errorMessage(error, dialog.failure)),
              onSettled: () => setConfirming(null),
            })
          }
        >
          {dialog.text}
        </ConfirmDialog>
      )}
    </div>
  );
}
