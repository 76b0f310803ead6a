import { Badge, Text, makeStyles, tokens } from '@fluentui/react-components';

export const IMPORT_STEPS = ['Choose import method', 'Import'] as const;

const useStyles = makeStyles({
  list: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXXL, listStyleType: 'none', margin: 0, padding: 0 },
  step: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
});

/** Where the wizard is: the current step is marked with aria-current. */
export function ImportSteps({ current }: { current: number }) {
  const styles = useStyles();
  return (
    <ol className={styles.list} aria-label="Import steps">
      {IMPORT_STEPS.map((label, index) => (
        <li key={label} className={styles.step} aria-current={index === current ? 'step' : undefined}>
          <Badge shape="circular" appearance={index <= current ? 'filled' : 'outline'} aria-hidden>
            {index + 1}
          </Badge>
          <Text weight={index === current ? 'semibold' : 'regular'}>{label}</Text>
        </li>
      ))}
    </ol>
  );
}
