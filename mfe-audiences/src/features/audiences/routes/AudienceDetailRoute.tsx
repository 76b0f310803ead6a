import { Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useRemote } from '@mailroom/mf-contract/react';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import { parseRouteId, RouterLink } from '@mailroom/ui';
import { useParams } from 'react-router-dom';
import { useAudience } from '../api/audiences';
import { AudienceOptionsMenu } from '../components/AudienceOptionsMenu';
import { AudienceTitle } from '../components/AudienceTitle';
import { ContactsSection } from '../components/ContactsSection';
import { ImportStatusBanners } from '../components/ImportStatusBanners';
import { AudienceFormsLink } from '../../../components/AudienceFormsLink';
import { AudienceSegmentsLink } from '../../../components/AudienceSegmentsLink';

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
    return <AudienceNotFound error={id === null ? null : audience.error} onRetry={() => void audience.refetch()} />;
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
      {/* Sign-ups not confirmed yet are not contacts: shown apart, never in the counts above. */}
      {data.pendingCount ? <Text className={styles.summary}>{data.pendingCount} waiting for confirmation</Text> : null}
      <AudienceFormsLink audienceId={data.id} />
      <AudienceSegmentsLink audienceId={data.id} />
      <ImportStatusBanners audience={data} />
      <ContactsSection key={data.id} audience={data} />
    </section>
  );
}
