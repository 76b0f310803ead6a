// The only module that imports @fluentui/react-charts (with d3 under it): OverviewTimeline loads it with
// React.lazy, so the charts are fetched when a report's Overview shows a timeline and by no other view.
import { DataVizPalette, getColorFromToken, VerticalStackedBarChart, type VerticalStackedChartProps } from '@fluentui/react-charts';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReportTimelineBucket } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { bucketLabel, closingBucket, cumulativeSent } from './timeline';

const useStyles = makeStyles({
  charts: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
});

/** The series' colours: the charts' own palette, in its light or dark shade (a token would be drawn black). */
function palette(dark: boolean) {
  return {
    people: getColorFromToken(DataVizPalette.color1, dark),
    machines: getColorFromToken(DataVizPalette.color3, dark),
    sent: getColorFromToken(DataVizPalette.color5, dark),
  };
}

type Palette = ReturnType<typeof palette>;

interface Series {
  title: string;
  people: (bucket: ReportTimelineBucket) => number;
  machines: (bucket: ReportTimelineBucket) => number;
}

const SERIES: Series[] = [
  { title: 'Opens', people: (b) => b.opensHuman, machines: (b) => b.opensMachine },
  { title: 'Clicks', people: (b) => b.clicksHuman, machines: (b) => b.clicksMachine },
];

/** One chart per measure: people and machines stacked per bucket, the mails sent so far as a line over them. */
function stacks(buckets: readonly ReportTimelineBucket[], series: Series, colors: Palette): VerticalStackedChartProps[] {
  const sentSoFar = cumulativeSent(buckets);
  const stack = (bucket: ReportTimelineBucket, sent: number): VerticalStackedChartProps => ({
    xAxisPoint: new Date(bucket.start),
    xAxisCalloutData: bucketLabel(bucket),
    chartData: [
      { legend: `${series.title} by people`, data: series.people(bucket), color: colors.people },
      { legend: `${series.title} by machines`, data: series.machines(bucket), color: colors.machines },
    ],
    lineData: [{ legend: 'Sent so far', color: colors.sent, y: sent, useSecondaryYScale: true }],
  });
  const points = buckets.map((bucket, index) => stack(bucket, sentSoFar[index] ?? 0));
  const only = buckets.length === 1 ? buckets[0] : undefined;
  // The chart draws a line between points and shows a point alone only under the pointer: a single
  // bucket's 'Sent so far' would not show at all. Its line runs on to the end of the bucket, when
  // that many had been sent, over an empty bar.
  if (only) points.push(stack(closingBucket(only), sentSoFar[0] ?? 0));
  return points;
}

export default function TimelineChart({ buckets }: { buckets: readonly ReportTimelineBucket[] }) {
  const styles = useStyles();
  const colors = palette(useRemote().theme === 'dark');
  const sentTotal = cumulativeSent(buckets).at(-1) ?? 0;
  return (
    <div className={styles.charts} data-chart="timeline">
      {SERIES.map((series) => (
        <VerticalStackedBarChart
          key={series.title}
          chartTitle={`${series.title} over time`}
          data={stacks(buckets, series, colors)}
          height={280}
          yAxisTitle={series.title}
          secondaryYAxistitle="Sent so far"
          secondaryYScaleOptions={{ yMinValue: 0, yMaxValue: Math.max(sentTotal, 1) }}
          margins={{ left: 60, right: 60, bottom: 40 }}
          useUTC={false}
          isCalloutForStack
          enabledLegendsWrapLines
          roundCorners
        />
      ))}
    </div>
  );
}
