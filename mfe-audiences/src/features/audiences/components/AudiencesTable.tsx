import { Button, Spinner, TableBody, TableCell, TableRow, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ErrorCircleRegular } from '@fluentui/react-icons';
import type { Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ColumnHeaders, DeleteMenuItem, RenameMenuItem, RowActions, ScrollingTable, TruncatedText, formatDateTime } from '@mailroom/ui';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';

// The dialogs are fetched when first opened, which keeps the list (the first view after signing in) small.
const RenameAudienceDialog = lazy(() => import('./RenameAudienceDialog').then((module) => ({ default: module.RenameAudienceDialog })));
const DeleteAudienceDialog = lazy(() => import('./DeleteAudienceDialog').then((module) => ({ default: module.DeleteAudienceDialog })));

const useStyles = makeStyles({
  name: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  errorIcon: { color: tokens.colorPaletteRedForeground1, fontSize: '20px', display: 'inline-flex' },
});

const COLUMNS = ['Name', 'Contacts', 'Imported From', 'Created At', 'Actions'];

type Pending = { kind: 'rename' | 'delete'; audience: Audience } | null;

export function AudiencesTable({ audiences }: { audiences: Audience[] }) {
  const styles = useStyles();
  const { basePath } = useRemote();
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending>(null);

  return (
    <>
      <ScrollingTable aria-label="Audiences">
        <ColumnHeaders columns={COLUMNS} />
        <TableBody>
          {audiences.map((audience) => (
            <TableRow key={audience.id}>
              <TableCell>
                <span className={styles.name}>
                  <TruncatedText text={audience.name} />
                  {audience.isImporting && <Spinner size="extra-tiny" aria-label="Importing contacts" />}
                  {audience.numberOfContactsWithErrors > 0 && (
                    <Tooltip content={`${audience.numberOfContactsWithErrors} contacts with errors`} relationship="label">
                      <span className={styles.errorIcon} role="img" tabIndex={0}>
                        <ErrorCircleRegular />
                      </span>
                    </Tooltip>
                  )}
                </span>
              </TableCell>
              <TableCell>{audience.numberOfContacts}</TableCell>
              <TableCell>{audience.source ?? ''}</TableCell>
              <TableCell>{formatDateTime(audience.createdAt)}</TableCell>
              <TableCell>
                <RowActions
                  itemName={audience.name}
                  needs={{ role: 'editor', action: 'rename or delete audiences' }}
                  primary={
                    <Button size="small" aria-label={`View ${audience.name}`} onClick={() => navigate(`${basePath}/${audience.id}`)}>
                      View
                    </Button>
                  }
                >
                  <RenameMenuItem onClick={() => setPending({ kind: 'rename', audience })} />
                  <DeleteMenuItem onClick={() => setPending({ kind: 'delete', audience })} />
                </RowActions>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollingTable>
      <Suspense fallback={null}>
        {pending?.kind === 'rename' && <RenameAudienceDialog audience={pending.audience} onClose={() => setPending(null)} />}
        {pending?.kind === 'delete' && <DeleteAudienceDialog audience={pending.audience} onClose={() => setPending(null)} />}
      </Suspense>
    </>
  );
}
