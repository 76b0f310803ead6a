import { Title1, makeStyles, tokens } from '@fluentui/react-components';
import { ApiError, errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ErrorPanel, RouterLink } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalL },
});

/**
 * 'No Campaign Found!' with a way back to the list (docs/product.md, Campaign editor); when the cause was a failed
 * request rather than a missing campaign, the error and a retry too.
 */
export function CampaignNotFound({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const styles = useStyles();
  const { basePath } = useRemote();
  const missing = !error || (error instanceof ApiError && error.status === 404);
  return (
    <section className={styles.root}>
      <Title1 as="h1">No Campaign Found!</Title1>
      {!missing && (
        <ErrorPanel title="Failed to load the campaign" message={errorMessage(error, 'Failed to load the campaign')} onRetry={onRetry} />
      )}
      <RouterLink to={basePath}>Back to Campaigns</RouterLink>
    </section>
  );
}
