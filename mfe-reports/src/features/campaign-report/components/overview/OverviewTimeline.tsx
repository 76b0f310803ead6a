import {
  Body1,
  Spinner,
  Subtitle1,
  Switch,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
  useId,
} from '@fluentui/react-components';
import type { ReportTimeline } from '@mailroom/api-client';
import { ScrollingTable } from '@mailroom/ui';
import { lazy, Suspense, useState } from 'react';
import { bucketLabel, cumulativeSent, hasOpensOrClicks } from './timeline';

/** Fluent's charts and d3 come with this chunk only (see TimelineChart). */
const TimelineChart = lazy(() => import('./TimelineChart'));

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  note: { color: tokens.colorNeutralForeground2 },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
});

const COLUMNS = ['Time', 'Mails sent', 'Sent so far', 'Opens by people', 'Opens by machines', 'Clicks by people', 'Clicks by machines'];

/**
 * Opens and clicks per hour for the first 72 hours of sending, then per day, people and machines
 * apart, with the send progress on the same axis (an addition to the spec). The chart's figures are
 * also a table, behind the 'Show as table' switch, for a screen reader or a closer read.
 */
export function OverviewTimeline({ timeline }: { timeline: ReportTimeline }) {
  const styles = useStyles();
  const headingId = useId('timeline');
  const [asTable, setAsTable] = useState(false);
  const { buckets } = timeline;
  const sentSoFar = cumulativeSent(buckets);
  return (
    <section className={styles.root} aria-labelledby={headingId}>
      <div className={styles.header}>
        <Subtitle1 as="h2" id={headingId}>
          Timeline
        </Subtitle1>
        {buckets.length > 0 && <Switch label="Show as table" checked={asTable} onChange={(_, data) => setAsTable(data.checked)} />}
      </div>
      {buckets.length === 0 ? (
        <Body1 className={styles.note}>Nothing sent yet: the timeline starts when sending does.</Body1>
      ) : (
        <>
          {!hasOpensOrClicks(buckets) && <Body1 className={styles.note}>No opens or clicks yet.</Body1>}
          {asTable ? (
            <ScrollingTable aria-label="Timeline" size="small">
              <TableHeader>
                <TableRow>
                  {COLUMNS.map((column) => (
                    <TableHeaderCell key={column}>{column}</TableHeaderCell>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {buckets.map((bucket, index) => (
                  <TableRow key={bucket.start}>
                    <TableCell>{bucketLabel(bucket)}</TableCell>
                    {[
                      bucket.sent,
                      sentSoFar[index] ?? 0,
                      bucket.opensHuman,
                      bucket.opensMachine,
                      bucket.clicksHuman,
                      bucket.clicksMachine,
                    ].map((value, column) => (
                      <TableCell key={column} className={styles.number}>
                        {value}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </ScrollingTable>
          ) : (
            <Suspense fallback={<Spinner size="small" label="Loading the chart..." />}>
              <TimelineChart buckets={buckets} />
            </Suspense>
          )}
        </>
      )}
    </section>
  );
}
