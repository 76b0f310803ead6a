import { Title1, makeStyles, tokens } from '@fluentui/react-components';
import { ApiError, errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ErrorPanel, RouterLink } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

/**
 * What the detail page and the import wizard show when their audience cannot be had: 'Audience not
 * found' (docs/product.md), plus the error and a retry when the cause was a failed request rather than a 404.
 */
export function AudienceNotFound({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const styles = useStyles();
  const { basePath } = useRemote();
  const missing = !error || (error instanceof ApiError && error.status === 404);
  return (
    <section className={styles.root}>
      <Title1 as="h1">Audience not found</Title1>
      {!missing && (
        <ErrorPanel title="Failed to load the audience" message={errorMessage(error, 'Failed to load the audience')} onRetry={onRetry} />
      )}
      <RouterLink to={basePath}>Back to Audiences</RouterLink>
    </section>
  );
}
