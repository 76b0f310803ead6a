import { TableBody, TableCell, TableRow } from '@fluentui/react-components';
import type { CampaignLink } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable, TruncatedText } from '@mailroom/ui';
import { clickTotals, formatShare } from './shares';

const COLUMNS = ['URL', 'Total Clicks', 'Unique Clicks'];

/** 'Links in this email': each link's total and unique clicks, with its share of all of them. */
export function LinksTable({ links }: { links: CampaignLink[] }) {
  const totals = clickTotals(links);
  return (
    <ScrollingTable aria-label="Links in this email" size="small">
      <ColumnHeaders columns={COLUMNS} />
      <TableBody>
        {links.length === 0 ? (
          <TableRow>
            <TableCell colSpan={COLUMNS.length}>No data available</TableCell>
          </TableRow>
        ) : (
          links.map((link) => (
            <TableRow key={link.id}>
              <TableCell>
                <TruncatedText text={link.href} />
              </TableCell>
              <TableCell>{`${link.clicks} (${formatShare(link.clicks, totals.clicks)})`}</TableCell>
              <TableCell>{`${link.uniqueClicks} (${formatShare(link.uniqueClicks, totals.uniqueClicks)})`}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </ScrollingTable>
  );
}
