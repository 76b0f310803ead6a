import {
  Subtitle1,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
  useId,
} from '@fluentui/react-components';
import { WarningFilled } from '@fluentui/react-icons';
import type { ReportDomain } from '@mailroom/api-client';
import { ScrollingTable } from '@mailroom/ui';
import { formatShare } from '../click-performance/shares';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  domain: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  flag: { color: tokens.colorStatusWarningForeground1, fontWeight: tokens.fontWeightSemibold },
});

const COLUMNS = [
  'Domain',
  'Mails sent',
  'Delivered',
  'Bounced (hard)',
  'Bounced (soft)',
  'Complaints',
  'Open rate (people)',
  'Click rate (people)',
  'Waited for domain limit',
  'Deferred',
  'Throttled by SES',
];

/**
 * Deliverability by recipient domain (an addition to the spec): the top domains, then 'Other'. A
 * domain whose bounce or complaint rate stands far above the campaign's is flagged by the server; the
 * mark is an icon and words, not a colour alone. The last columns say what held the domain's mail back
 * (issue 28): mails that waited in place for its limit (DOMAIN_RATE_LIMITS), the times one was deferred
 * to a later slot of it, and SES's 429 refusals for the rate; each was retried, none was lost.
 */
export function DomainsTable({ domains }: { domains: readonly ReportDomain[] }) {
  const styles = useStyles();
  const headingId = useId('domains');
  return (
    <section className={styles.root} aria-labelledby={headingId}>
      <Subtitle1 as="h2" id={headingId}>
        Deliverability by domain
      </Subtitle1>
      <ScrollingTable aria-label="Deliverability by domain" size="small">
        <TableHeader>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableHeaderCell key={column}>{column}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {domains.length === 0 ? (
            <TableRow>
              <TableCell colSpan={COLUMNS.length}>No mails sent yet.</TableCell>
            </TableRow>
          ) : (
            domains.map((domain) => (
              <TableRow key={domain.domain ?? ''}>
                <TableCell>
                  <span className={styles.domain}>
                    {domain.domain ?? 'Other'}
                    {domain.flagged && (
                      <span className={styles.flag}>
                        <WarningFilled aria-hidden /> High bounces or complaints
                      </span>
                    )}
                  </span>
                </TableCell>
                {[domain.sent, domain.delivered, domain.bouncedHard, domain.bouncedSoft, domain.complaints].map((value, column) => (
                  <TableCell key={column} className={styles.number}>
                    {value}
                  </TableCell>
                ))}
                <TableCell className={styles.number}>{formatShare(domain.openedHuman, domain.sent)}</TableCell>
                <TableCell className={styles.number}>{formatShare(domain.clickedHuman, domain.sent)}</TableCell>
                {[domain.limitWaits, domain.deferrals, domain.sesThrottles].map((value, column) => (
                  <TableCell key={`held-${column}`} className={styles.number}>
                    {value}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </ScrollingTable>
    </section>
  );
}
