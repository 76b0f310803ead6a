import { TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';
import type { Suppression } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { IconButton, ScrollingTable, TruncatedText, formatDateTime } from '@mailroom/ui';

/** One row per suppressed address: the address, why, since when, the campaign it came from, and Remove. */
export function SuppressionsTable({ items, onRemove }: { items: Suppression[]; onRemove: (suppression: Suppression) => void }) {
  return (
    <ScrollingTable aria-label="Suppressions" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Email</TableHeaderCell>
          <TableHeaderCell>Reason</TableHeaderCell>
          <TableHeaderCell>Date</TableHeaderCell>
          <TableHeaderCell>Campaign</TableHeaderCell>
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
              <TruncatedText
                text={item.campaignName ?? (item.campaignId === null ? (item.addedBy ?? '—') : `Campaign ${item.campaignId}`)}
              />
            </TableCell>
            <TableCell>
              <IconButton label={`Remove ${item.email}`} icon={<DeleteRegular />} onClick={() => onRemove(item)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
