import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Subtitle1,
  Text,
  Title1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, DeleteRegular, PersonSearchRegular, SearchRegular } from '@fluentui/react-icons';
import { errorMessage, type Person } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { useRemote } from '@mailroom/mf-contract/react';
import { EmptyState, ErrorPanel, formatDateTime, RoleGate } from '@mailroom/ui';
import { useState, type FormEvent } from 'react';
import { useExportPerson, usePerson } from '../api/people';
import { ConsentList } from '../../../components/ConsentList';
import { EraseDialog } from '../components/EraseDialog';
import { PersonAudiences } from '../components/PersonAudiences';
import { PersonMails } from '../../../components/PersonMails';
import { count, hitsInWords } from '../../../components/words';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  search: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  field: { flexGrow: 1, maxWidth: '480px', minWidth: '200px' },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
  },
  term: { fontWeight: tokens.fontWeightSemibold },
  definition: { margin: 0, overflowWrap: 'anywhere' },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
});

/** Anything held about the address at all. */
const holdsAnything = (person: Person) => person.audiences.length > 0 || person.totalMails > 0 || person.suppression !== null;

function PersonView({ person }: { person: Person }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const exportPerson = useExportPerson();
  const [erasing, setErasing] = useState(false);
  const held = holdsAnything(person);

  return (
    <section className={styles.root} aria-labelledby="person-title">
      <div className={styles.header}>
        <Subtitle1 as="h2" id="person-title">
          {person.email}
        </Subtitle1>
        <div className={styles.actions}>
          <RoleGate needs="editor" action="export what is held about a person">
            {(lock) => (
              <Button
                icon={exportPerson.isPending ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
                disabled={exportPerson.isPending}
                onClick={() =>
                  exportPerson.mutate(person.email, {
                    onError: (error) => notify('error', errorMessage(error, 'Failed to export everything')),
                  })
                }
                {...lock}
              >
                Export everything
              </Button>
            )}
          </RoleGate>
          {!person.erasedAt && (
            <RoleGate needs="editor" action="erase a person">
              {(lock) => (
                <Button icon={<DeleteRegular />} onClick={() => setErasing(true)} {...lock}>
                  Erase
                </Button>
              )}
            </RoleGate>
          )}
        </div>
      </div>
      {person.erasedAt && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>This address was erased on {formatDateTime(person.erasedAt)}.</MessageBarTitle>
            Only a one-way hash of it is kept, on the suppression list, so that it is never mailed again without fresh consent.
          </MessageBarBody>
        </MessageBar>
      )}
      {!held ? (
        !person.erasedAt && (
          <EmptyState
            icon={<PersonSearchRegular />}
            title="Nothing is held about this address"
            description="No audience, mail or suppression holds it. Check the spelling: the search matches the whole address, in any case."
          />
        )
      ) : (
        <>
          <dl className={styles.facts} aria-label="Summary">
            <dt className={styles.term}>Audiences</dt>
            <dd className={styles.definition}>{count(new Set(person.audiences.map((c) => c.audienceId)).size, 'audience')}</dd>
            <dt className={styles.term}>Mails</dt>
            <dd className={styles.definition}>{count(person.totalMails, 'mail')}</dd>
            <dt className={styles.term}>Opens</dt>
            <dd className={styles.definition}>{hitsInWords(person.opens)}</dd>
            <dt className={styles.term}>Clicks</dt>
            <dd className={styles.definition}>{hitsInWords(person.clicks)}</dd>
            <dt className={styles.term}>Suppression</dt>
            <dd className={styles.definition}>
              {person.suppression
                ? `Suppressed (${SUPPRESSION_REASON_LABELS[person.suppression.reason]}) since ${formatDateTime(person.suppression.createdAt)}` +
                  (person.suppression.campaignName ? `, from ${person.suppression.campaignName}` : '')
                : 'Not suppressed'}
            </dd>
          </dl>
          <div className={styles.section}>
            <Subtitle1 as="h3">Audiences</Subtitle1>
            {person.audiences.length === 0 ? <Text>No audience holds the address.</Text> : <PersonAudiences contacts={person.audiences} />}
          </div>
          <div className={styles.section}>
            <Subtitle1 as="h3">Mails</Subtitle1>
            {person.totalMails === 0 ? (
              <Text>No mail was sent to the address.</Text>
            ) : (
              <>
                {person.totalMails > person.mails.length && (
                  <Text>
                    The newest {person.mails.length} of {count(person.totalMails, 'mail')}; Export everything holds them all.
                  </Text>
                )}
                <PersonMails mails={person.mails} />
              </>
            )}
          </div>
          <div className={styles.section}>
            <Subtitle1 as="h3">Consent</Subtitle1>
            <ConsentList events={person.consent} className={styles.list} />
          </div>
        </>
      )}
      {erasing && <EraseDialog person={person} onClose={() => setErasing(false)} />}
    </section>
  );
}

/**
 * /people (an addition, issue 24): one person across every audience. The member types an address
 * (matched whole, in any case); the page shows every audience it is on, every mail sent to it with
 * its opens and clicks (people's and machines' apart), its suppression and its consent, with 'Export
 * everything' (one JSON file, GDPR article 15) and 'Erase' (article 17). The address stays in the
 * page's state, never in its URL, so no history or server log keeps it.
 */
export function PeopleRoute() {
  const styles = useStyles();
  const [typed, setTyped] = useState('');
  const [email, setEmail] = useState('');
  const person = usePerson(email);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setEmail(typed.trim());
  };

  return (
    <section className={styles.root} aria-labelledby="people-title">
      <Title1 as="h1" id="people-title">
        People
      </Title1>
      <Text>
        Everything Mailroom holds about one address, across every audience: to answer a person who asks what is held about them, or asks for
        it to be erased.
      </Text>
      <form className={styles.search} role="search" aria-label="Find a person" onSubmit={submit}>
        <Field className={styles.field} label="Email address" hint="The whole address; capitals do not matter.">
          <Input type="email" value={typed} autoComplete="off" onChange={(_, data) => setTyped(data.value)} />
        </Field>
        <Button type="submit" appearance="primary" icon={<SearchRegular />} disabled={typed.trim() === ''}>
          Find
        </Button>
      </form>
      {email === '' ? null : person.isError ? (
        <ErrorPanel message={errorMessage(person.error, 'Failed to find the address')} onRetry={() => void person.refetch()} />
      ) : !person.data ? (
        <Spinner label="Looking everywhere..." />
      ) : (
        <PersonView person={person.data} />
      )}
    </section>
  );
}
