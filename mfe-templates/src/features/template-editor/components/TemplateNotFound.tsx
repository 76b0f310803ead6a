import { Title1, makeStyles, tokens } from '@fluentui/react-components';
import { ApiError, errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ErrorPanel, RouterLink } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalL },
});

/**
 * 'No Template Found!' with 'Back to homepage' (docs/product.md), plus the error and a retry when the cause was
 * a failed request rather than a missing template.
 */
export function TemplateNotFound({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const styles = useStyles();
  const { basePath } = useRemote();
  const missing = !error || (error instanceof ApiError && (error.status === 404 || error.status === 400));
  return (
    <section className={styles.root}>
      <Title1 as="h1">No Template Found!</Title1>
      {!missing && (
        <ErrorPanel title="Failed to load the template" message={errorMessage(error, 'Failed to load the template')} onRetry={onRetry} />
      )}
      <RouterLink to={basePath}>Back to homepage</RouterLink>
    </section>
  );
}
