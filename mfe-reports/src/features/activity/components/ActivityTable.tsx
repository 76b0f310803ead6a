import { TableBody, TableCell, TableRow } from '@fluentui/react-components';
import type { ActivityEntry } from '@mailroom/api-client';
import { ColumnHeaders, formatDateTime, ScrollingTable, TruncatedText } from '@mailroom/ui';
import { detailsLine, KIND_LABELS, OBJECT_LABELS } from './labels';

export const ACTIVITY_COLUMNS = ['Time', 'Member', 'Action', 'Object', 'Details'] as const;

/** One page of the log, newest first. */
export function ActivityTable({ entries }: { entries: ActivityEntry[] }) {
  return (
    <ScrollingTable aria-label="Activity" size="small">
      <ColumnHeaders columns={ACTIVITY_COLUMNS} />
      <TableBody>
        {entries.map((entry) => {
          const details = detailsLine(entry.details);
          const object = `${OBJECT_LABELS[entry.objectType]}${entry.objectName ? ` “${entry.objectName}”` : ''}${entry.objectId ? ` #${entry.objectId}` : ''}`;
          return (
            <TableRow key={entry.id}>
              <TableCell>{formatDateTime(entry.createdAt)}</TableCell>
              <TableCell>
                <TruncatedText text={entry.memberEmail} />
              </TableCell>
              <TableCell>{KIND_LABELS[entry.kind]}</TableCell>
              <TableCell>
                <TruncatedText text={object} />
              </TableCell>
              <TableCell>{details ? <TruncatedText text={details} /> : null}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </ScrollingTable>
  );
}
