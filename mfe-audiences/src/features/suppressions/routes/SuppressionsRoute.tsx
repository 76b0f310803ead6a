import { Button, Field, Input, Select, Spinner, Text, Title1, makeStyles, tokens } from '@fluentui/react-components';
import {
  AddRegular,
  ArrowDownloadRegular,
  ArrowNextRegular,
  ArrowPreviousRegular,
  ChevronLeftRegular,
  ChevronRightRegular,
  ShieldRegular,
} from '@fluentui/react-icons';
import { errorMessage, type Suppression, type SuppressionAddResult, type SuppressionReason } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { useRemote } from '@mailroom/mf-contract/react';
import { EmptyState, ErrorPanel, IconButton, RoleGate, RouterLink, useDebouncedValue } from '@mailroom/ui';
import { useState } from 'react';
import type { SuppressionCursor } from '../api/keys';
import { useExportSuppressions, useSuppressions } from '../api/suppressions';
import { AddOutcome } from '../components/AddOutcome';
import { AddSuppressionsDialog } from '../components/AddSuppressionsDialog';
import { RemoveSuppressionDialog } from '../components/RemoveSuppressionDialog';
import { SuppressionsTable } from '../components/SuppressionsTable';

/** Rows a page. */
export const SUPPRESSIONS_PAGE_SIZE = 50;
const REASONS = Object.keys(SUPPRESSION_REASON_LABELS) as SuppressionReason[];

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  footer: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: tokens.spacingHorizontalL },
  buttons: { display: 'flex', columnGap: tokens.spacingHorizontalXS },
});

/**
 * /audiences/suppressions (an addition to the spec): every suppressed address with its reason, date
 * and campaign; searched by address, filtered by reason, paged by keyset (first, previous, next, last:
 * the API pages a million rows by cursor, so the position is kept here as the pages are walked).
 */
export function SuppressionsRoute() {
  const styles = useStyles();
  const { notify } = useRemote();
  const [search, setSearch] = useState('');
  const email = useDebouncedValue(search.trim(), 300);
  const [reason, setReason] = useState<SuppressionReason | undefined>();
  const [cursor, setCursor] = useState<SuppressionCursor>({});
  const [offset, setOffset] = useState(0);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Suppression>();
  const [added, setAdded] = useState<SuppressionAddResult>();
  const filters = { ...(email ? { email } : {}), ...(reason ? { reason } : {}) };
  const list = useSuppressions({ limit: SUPPRESSIONS_PAGE_SIZE, ...filters, ...cursor });
  const exportList = useExportSuppressions();
  const page = list.data;
  // The server knows the position of first, last and searched pages; others are counted as walked.
  const from = page?.offset ?? offset;

  const go = (next: SuppressionCursor, position: number) => {
    setCursor(next);
    setOffset(Math.max(0, position));
  };
  const restart = () => go({}, 0);

  return (
    <section className={styles.root} aria-labelledby="suppressions-title">
      <div className={styles.header}>
        <Title1 as="h1" id="suppressions-title">
          Suppressions
        </Title1>
        <div className={styles.actions}>
          {/* The list holds addresses: a viewer exports nothing that does (issue 27). */}
          <RoleGate needs="editor" action="export addresses">
            {(lock) => (
              <Button
                icon={exportList.isPending ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
                disabled={exportList.isPending}
                onClick={() => exportList.mutate(filters, { onError: (error) => notify('error', errorMessage(error, 'Failed to export')) })}
                {...lock}
              >
                Export CSV
              </Button>
            )}
          </RoleGate>
          <RoleGate needs="editor" action="add suppressions">
            {(lock) => (
              <Button appearance="primary" icon={<AddRegular />} onClick={() => setAdding(true)} {...lock}>
                Add addresses
              </Button>
            )}
          </RoleGate>
        </div>
      </div>
      <Text>
        Campaigns are not sent to these addresses. An address is listed when its owner unsubscribes or complains, when mail to it bounces
        for good or bounces softly too often, or when a member adds it. <RouterLink to="..">Back to audiences</RouterLink>
      </Text>
      {/* Always in the page, so that the outcome of an add is announced when it appears. */}
      <div role="status">{added && <AddOutcome result={added} onDismiss={() => setAdded(undefined)} />}</div>
      <div className={styles.filters}>
        <Field label="Search by email">
          <Input
            type="search"
            value={search}
            onChange={(_, data) => {
              setSearch(data.value);
              restart();
            }}
          />
        </Field>
        <Field label="Reason">
          <Select
            value={reason ?? ''}
            onChange={(_, data) => {
              setReason(data.value === '' ? undefined : (data.value as SuppressionReason));
              restart();
            }}
          >
            <option value="">All reasons</option>
            {REASONS.map((value) => (
              <option key={value} value={value}>
                {SUPPRESSION_REASON_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      {list.isError && !page ? (
        <ErrorPanel message={errorMessage(list.error, 'Failed to load the suppressions')} onRetry={() => void list.refetch()} />
      ) : !page ? (
        <Spinner label="Loading suppressions..." />
      ) : page.items.length === 0 ? (
        <EmptyState
          icon={<ShieldRegular />}
          title={email || reason ? 'No suppression matches' : 'No suppressed addresses'}
          description={
            email || reason ? 'Try another search or reason.' : 'Addresses appear here when they unsubscribe, bounce or complain.'
          }
        />
      ) : (
        <>
          <SuppressionsTable items={page.items} onRemove={setRemoving} />
          <div className={styles.footer} role="group" aria-label="Suppressions pagination">
            <Text aria-live="polite">
              {from + 1}–{from + page.items.length} of {page.totalItems}
            </Text>
            <div className={styles.buttons}>
              <IconButton label="First page" icon={<ArrowPreviousRegular />} disabled={!page.hasNewer} onClick={restart} />
              <IconButton
                label="Previous page"
                icon={<ChevronLeftRegular />}
                disabled={!page.hasNewer}
                onClick={() => go({ before: page.items[0]!.id }, from - SUPPRESSIONS_PAGE_SIZE)}
              />
              <IconButton
                label="Next page"
                icon={<ChevronRightRegular />}
                disabled={!page.hasOlder}
                onClick={() => go({ after: page.items[page.items.length - 1]!.id }, from + page.items.length)}
              />
              <IconButton
                label="Last page"
                icon={<ArrowNextRegular />}
                disabled={!page.hasOlder}
                onClick={() => go({ end: true }, page.totalItems - SUPPRESSIONS_PAGE_SIZE)}
              />
            </div>
          </div>
        </>
      )}

      {adding && (
        <AddSuppressionsDialog
          onClose={() => setAdding(false)}
          onAdded={(result) => {
            setAdding(false);
            setAdded(result);
          }}
        />
      )}
      {removing && <RemoveSuppressionDialog suppression={removing} onClose={() => setRemoving(undefined)} />}
    </section>
  );
}
