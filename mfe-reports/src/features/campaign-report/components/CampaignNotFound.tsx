import { Title1, makeStyles, tokens } from '@fluentui/react-components';
import { ApiError, errorMessage } from '@mailroom/api-client';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { ErrorPanel, RouterLink } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

/**
 * What the report shows when its campaign cannot be had: 'No Campaign Found!' (docs/product.md, Messages and behaviour worth knowing). The spec makes a
 * failed load silent (no toast); a failure other than a 404 still gets its error and a retry in place.
 */
export function CampaignNotFound({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const styles = useStyles();
  const missing = !error || (error instanceof ApiError && error.status === 404);
  return (
    <section className={styles.root}>
      <Title1 as="h1">No Campaign Found!</Title1>
      {!missing && (
        <ErrorPanel title="Failed to load the report" message={errorMessage(error, 'Failed to load the report')} onRetry={onRetry} />
      )}
      <RouterLink to={REMOTES.campaigns.basePath}>Back to Campaigns</RouterLink>
    </section>
  );
}
