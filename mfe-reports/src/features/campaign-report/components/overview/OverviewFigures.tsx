import { Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
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
  // A plain tile rather than Fluent's Card: Card's styles call Griffel's shorthands at run time, which
  // the apps' build leaves out of the shared @griffel/react (every style is pre-computed at build time).
  tile: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    height: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
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
          <div className={styles.tile}>
            <Text className={styles.label}>{figure.label}</Text>
            <Text size={600} weight="semibold" className={styles.rate}>
              {figure.rate}
            </Text>
            <Caption1>{figure.detail}</Caption1>
          </div>
        </li>
      ))}
    </ul>
  );
}
