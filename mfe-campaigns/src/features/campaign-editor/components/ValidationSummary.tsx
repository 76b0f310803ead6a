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
  fieldKeys = null,
}: {
  validation: UseQueryResult<ValidationResult[]> | null;
  suppressed?: UseQueryResult<SuppressedContacts> | null;
  /** The audience's field keys, to tell a tag the audience lacks (Send refuses it) from contacts without a value. */
  fieldKeys?: string[] | null;
}) {
  const styles = useStyles();
  const note = suppressedNote(suppressed?.data, 'audience');
  const lacking = fieldKeys && validation?.data ? lackingTags(validation.data, fieldKeys) : [];
  return (
    <div className={styles.root}>
      {lacking.length > 0 && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Merge tags the audience does not have</MessageBarTitle>
            The audience has no field for {lacking.map((tag) => `{{${tag}}}`).join(', ')}. Send is refused until the audience has{' '}
            {lacking.length === 1 ? 'it' : 'them'} or {lacking.length === 1 ? 'the tag gets' : 'each tag gets'} a fallback, such as{' '}
            {`{{${lacking[0]}|friend}}`}.
          </MessageBarBody>
        </MessageBar>
      )}
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

/**
 * The missing fields that name no field of the audience (in any case) and are not the address: tags the audience
 * lacks, which every valid contact misses. A tag with a fallback is never listed as missing by the server.
 */
export function lackingTags(results: ValidationResult[], fieldKeys: string[]): string[] {
  const keys = new Set(fieldKeys.map((key) => key.toLowerCase()));
  const tags = new Set<string>();
  for (const result of results)
    for (const tag of result.missingFields) if (!keys.has(tag.toLowerCase()) && tag.toLowerCase() !== 'email') tags.add(tag);
  return [...tags];
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
