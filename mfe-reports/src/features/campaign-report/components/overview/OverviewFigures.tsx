import { Caption1, Card, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { ReportOverview } from '@mailroom/api-client';
import { overviewFigures } from './figures';

const useStyles = makeStyles({
  // Tiles of at least 150 px: two side by side at 390 px, as many as fit on a wide screen.
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalM,
    margin: 0,
    padding: 0,
    listStyleType: 'none',
  },
  tile: { height: '100%', rowGap: tokens.spacingVerticalXS },
  label: { color: tokens.colorNeutralForeground2 },
  rate: { fontVariantNumeric: 'tabular-nums' },
});

/** The outcome figures as a grid of tiles: each a name, its rate and the count it comes from. */
export function OverviewFigures({ figures }: { figures: ReportOverview }) {
  const styles = useStyles();
  return (
    <ul className={styles.grid} aria-label="Figures">
      {overviewFigures(figures).map((figure) => (
        <li key={figure.label}>
          <Card className={styles.tile} appearance="filled-alternative" size="small">
            <Text className={styles.label}>{figure.label}</Text>
            <Text size={600} weight="semibold" className={styles.rate}>
              {figure.rate}
            </Text>
            <Caption1>{figure.detail}</Caption1>
          </Card>
        </li>
      ))}
    </ul>
  );
}
