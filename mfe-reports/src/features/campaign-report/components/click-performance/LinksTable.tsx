import { TableBody, TableCell, TableRow, Tooltip, makeStyles } from '@fluentui/react-components';
import type { CampaignLink } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable } from '@mailroom/ui';
import { clickTotals, formatShare } from './shares';

const useStyles = makeStyles({
  // The URL column takes the room the counts leave (a cell 100% wide whose content may shrink to nothing),
  // so a URL shows as much as fits and ends in an ellipsis only where the room ends; SPEC 9's 30-character
  // cut is for tooltips of long messages, not for a column with room to spare.
  urlColumn: { width: '100%', maxWidth: 0 },
  url: { display: 'block', minWidth: '8em', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/** 'Links in this email': each link's total and unique clicks, with its share of all of them. */
export function LinksTable({ links }: { links: CampaignLink[] }) {
  const styles = useStyles();
  const columns = [{ header: 'URL', className: styles.urlColumn }, 'Total Clicks', 'Unique Clicks'];
  const totals = clickTotals(links);
  return (
    <ScrollingTable aria-label="Links in this email" size="small">
      <ColumnHeaders columns={columns} />
      <TableBody>
        {links.length === 0 ? (
          <TableRow>
            <TableCell colSpan={columns.length}>No data available</TableCell>
          </TableRow>
        ) : (
          links.map((link) => (
            <TableRow key={link.id}>
              <TableCell className={styles.urlColumn}>
                {/* The whole URL is the text (the ellipsis is drawn by CSS); the tooltip shows it to the eye, by pointer or keyboard. */}
                <Tooltip content={link.href} relationship="inaccessible">
                  <span className={styles.url} tabIndex={0}>
                    {link.href}
                  </span>
                </Tooltip>
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
