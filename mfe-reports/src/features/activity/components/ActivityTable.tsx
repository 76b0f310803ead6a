import { TableBody, TableCell, TableRow, makeStyles } from '@fluentui/react-components';
import type { ActivityEntry } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { ColumnHeaders, formatDateTime, RouterLink, ScrollingTable } from '@mailroom/ui';
import { KIND_LABELS, OBJECT_LABELS } from './labels';
import { activitySentence } from './sentences';

export const ACTIVITY_COLUMNS = ['Time', 'Member', 'Action', 'Object', 'Details'] as const;

const useStyles = makeStyles({
  // Names, addresses and sentences are shown whole (the table's cells keep to one line otherwise):
  // they wrap within a readable width, and a table wider than the screen scrolls inside its box.
  wrap: { whiteSpace: 'normal', overflowWrap: 'anywhere', minWidth: '12rem', maxWidth: '28rem' },
});

/**
 * Where an entry's object is now: a campaign's editor while it is a draft or scheduled, its report once
 * it went out; an audience's page; a template's editor; the suppression list. Null for an object that
 * is gone (it is named, not linked) or an entry of no single object.
 */
export function objectPath(entry: Pick<ActivityEntry, 'objectType' | 'objectId' | 'objectExists' | 'campaignStatus'>): string | null {
  if (entry.objectType === 'suppression') return `${REMOTES.audiences.basePath}/suppressions`;
  if (!entry.objectExists || entry.objectId === null) return null;
  switch (entry.objectType) {
    case 'audience':
      return `${REMOTES.audiences.basePath}/${entry.objectId}`;
    case 'template':
      return `${REMOTES.templates.basePath}/edit/${entry.objectId}`;
    case 'campaign':
      return entry.campaignStatus === 'DRAFT' || entry.campaignStatus === 'SCHEDULED' || entry.campaignStatus === 'AWAITING_APPROVAL'
        ? `${REMOTES.campaigns.basePath}/edit/${entry.objectId}`
        : `${REMOTES.reports.basePath}/${entry.objectId}`;
    case 'person':
      // Named by an address or an erased key, which no page's path takes (issue 24).
      return null;
    case 'api-key':
    case 'webhook':
      // An admin's settings (issue 27): the keys' screen is the shell's, and webhooks have no screen yet.
      return null;
  }
}

/** 'Campaign “Autumn news” #12', its name (or type) a link to the object while it is there; 'deleted' once it is gone. */
function ObjectCell({ entry }: { entry: ActivityEntry }) {
  const path = objectPath(entry);
  const named = entry.objectName ? `“${entry.objectName}”` : OBJECT_LABELS[entry.objectType];
  const label = entry.objectName ? `${OBJECT_LABELS[entry.objectType]} ` : '';
  const id = entry.objectId ? ` #${entry.objectId}` : '';
  return (
    <>
      {label}
      {path ? <RouterLink to={path}>{named}</RouterLink> : named}
      {id}
      {!path && entry.objectId !== null && !entry.objectExists ? ' (deleted)' : ''}
    </>
  );
}

/** One page of the log, newest first. */
export function ActivityTable({ entries }: { entries: ActivityEntry[] }) {
  const styles = useStyles();
  return (
    <ScrollingTable aria-label="Activity" size="small">
      <ColumnHeaders columns={ACTIVITY_COLUMNS} />
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id}>
            <TableCell>{formatDateTime(entry.createdAt)}</TableCell>
            <TableCell>
              {/* A recipient's unsubscribe is theirs: the address is the recipient's, not a member's. */}
              <div className={styles.wrap}>{entry.kind === 'unsubscribe' ? `${entry.memberEmail} (recipient)` : entry.memberEmail}</div>
            </TableCell>
            <TableCell>{KIND_LABELS[entry.kind]}</TableCell>
            <TableCell>
              <div className={styles.wrap}>
                <ObjectCell entry={entry} />
              </div>
            </TableCell>
            <TableCell>
              <div className={styles.wrap}>{activitySentence(entry)}</div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
