import { Spinner, Text, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { ApiError } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ErrorPanel, failureMessage, parseRouteId, RouterLink } from '@mailroom/ui';
import { useParams } from 'react-router-dom';
import { useAudience } from '../api/audiences';
import { AudienceOptionsMenu } from '../components/AudienceOptionsMenu';
import { AudienceTitle } from '../components/AudienceTitle';
import { ContactsSection } from '../components/ContactsSection';
import { ImportStatusBanners } from '../components/ImportStatusBanners';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  summary: { color: tokens.colorNeutralForeground2 },
});

/** /audiences/{id}: the audience's name, import state and contacts. */
export function AudienceDetailRoute() {
  const styles = useStyles();
  const { basePath } = useRemote();
  const id = parseRouteId(useParams().id);
  const audience = useAudience(id ?? 0);

  if (id !== null && audience.isPending) return <Spinner label="Loading audience..." />;

  if (!audience.data) {
    const notFound = id === null || (audience.error instanceof ApiError && audience.error.status === 404);
    return (
      <section className={styles.root}>
        <Title1 as="h1">Audience not found</Title1>
        {!notFound && (
          <ErrorPanel
            title="Failed to load the audience"
            message={failureMessage(audience.error, 'Failed to load the audience')}
            onRetry={() => void audience.refetch()}
          />
        )}
        <RouterLink to={basePath}>Back to Audiences</RouterLink>
      </section>
    );
  }

  const { data } = audience;
  return (
    <section className={styles.root}>
      <RouterLink to={basePath}>Back to Audiences</RouterLink>
      <div className={styles.header}>
        <AudienceTitle key={data.id} audience={data} />
        <AudienceOptionsMenu audience={data} />
      </div>
      <Text className={styles.summary}>
        {data.numberOfContacts} contacts, {data.numberOfContactsWithErrors} with errors
        {data.source ? `, imported from ${data.source}` : ''}
      </Text>
      <ImportStatusBanners audience={data} />
      <ContactsSection key={data.id} audience={data} />
    </section>
  );
}
