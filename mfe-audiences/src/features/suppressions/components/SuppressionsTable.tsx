import { TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';
import type { Suppression } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { IconButton, ScrollingTable, TruncatedText, formatDateTime, RoleGate } from '@mailroom/ui';

/** The campaign a suppression came from: its name, its number once it is deleted, nothing for a member's addition. */
const campaignOf = (item: Suppression) => item.campaignName ?? (item.campaignId === null ? '—' : `Campaign ${item.campaignId}`);

/**
 * One row per suppressed address: the address, why, since when, the campaign it came from, the
 * member who added it (a member's addition has no campaign: it is not shown as one), and Remove.
 */
export function SuppressionsTable({ items, onRemove }: { items: Suppression[]; onRemove: (suppression: Suppression) => void }) {
  return (
    <ScrollingTable aria-label="Suppressions" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Email</TableHeaderCell>
          <TableHeaderCell>Reason</TableHeaderCell>
          <TableHeaderCell>Date</TableHeaderCell>
          <TableHeaderCell>Campaign</TableHeaderCell>
          <TableHeaderCell>Added by</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.id}>
            <TableCell>
              <TruncatedText text={item.email} />
            </TableCell>
            <TableCell>{SUPPRESSION_REASON_LABELS[item.reason]}</TableCell>
            <TableCell>{formatDateTime(item.createdAt)}</TableCell>
            <TableCell>
              <TruncatedText text={campaignOf(item)} />
            </TableCell>
            <TableCell>
              <TruncatedText text={item.addedBy ?? '—'} />
            </TableCell>
            <TableCell>
              {/* An erased person's hash stays: only their fresh consent may lift it, never a removal. */}
              {item.reason === 'ERASED' ? (
                '—'
              ) : (
                <RoleGate needs="editor" action="remove suppressions" hide>
                  {() => <IconButton label={`Remove ${item.email}`} icon={<DeleteRegular />} onClick={() => onRemove(item)} />}
                </RoleGate>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
