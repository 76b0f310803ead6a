import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  TableBody,
  TableCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { errorMessage, type SuppressedContacts, type ValidationResult } from '@mailroom/api-client';
import { ColumnHeaders, counted, PagedTableFooter, plural, ScrollingTable, TruncatedText } from '@mailroom/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { suppressedNote } from '../utils/presend';

/** The API lists at most this many contacts with missing fields. */
export const MAX_VALIDATION_RESULTS = 1000;
const PAGE_SIZE = 10;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/**
 * The validation banner and the table of contacts with missing fields (Email, Missing Fields), after
 * how many valid contacts are suppressed and will be skipped (as the send confirmation says).
 * `validation` and `suppressed` are null while no audience is chosen: there is nothing to check yet.
 */
export function ValidationSummary({
  validation,
  suppressed = null,
}: {
  validation: UseQueryResult<ValidationResult[]> | null;
  suppressed?: UseQueryResult<SuppressedContacts> | null;
}) {
  const styles = useStyles();
  const note = suppressedNote(suppressed?.data, 'audience');
  return (
    <div className={styles.root}>
      {note && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Suppressed contacts</MessageBarTitle>
            {note}
          </MessageBarBody>
        </MessageBar>
      )}
      {suppressed?.isError && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{errorMessage(suppressed.error, 'Failed to count the suppressed contacts')}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void suppressed.refetch()}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      <MissingFields validation={validation} />
    </div>
  );
}

function MissingFields({ validation }: { validation: UseQueryResult<ValidationResult[]> | null }) {
  const styles = useStyles();
  const [page, setPage] = useState(1);

  if (!validation) {
    return (
      <MessageBar intent="info" layout="multiline">
        <MessageBarBody>Choose an audience to check its contacts against the fields this email uses.</MessageBarBody>
      </MessageBar>
    );
  }
  if (validation.isPending) return <Spinner size="small" label="Checking the audience's contacts..." />;
  if (validation.isError) {
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>Validation failed</MessageBarTitle>
          {errorMessage(validation.error, 'Failed to validate the campaign')}
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void validation.refetch()}>Retry</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }

  const results = validation.data;
  if (results.length === 0) {
    return (
      <MessageBar intent="success" layout="multiline">
        <MessageBarBody>Every contact has the fields this email uses.</MessageBarBody>
      </MessageBar>
    );
  }

  const count =
    results.length >= MAX_VALIDATION_RESULTS
      ? `At least ${MAX_VALIDATION_RESULTS} contacts lack`
      : `${counted(results.length, 'contact')} ${plural(results.length, 'lacks', 'lack')}`;
  const shown = results.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <div className={styles.root}>
      <MessageBar intent="warning" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>Missing fields</MessageBarTitle>
          {count} fields this email uses; those fields will be empty in their copies.
        </MessageBarBody>
      </MessageBar>
      <ScrollingTable aria-label="Contacts with missing fields" size="small">
        <ColumnHeaders columns={['Email', 'Missing Fields']} />
        <TableBody>
          {shown.map((result) => (
            <TableRow key={result.contactId}>
              <TableCell>
                <TruncatedText text={result.email} />
              </TableCell>
              <TableCell>{result.missingFields.join(', ')}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollingTable>
      {results.length > PAGE_SIZE && (
        <PagedTableFooter
          label="Contacts with missing fields"
          page={page}
          pageSize={PAGE_SIZE}
          totalItems={results.length}
          onPageChange={setPage}
        />
      )}
    </div>
  );
}
