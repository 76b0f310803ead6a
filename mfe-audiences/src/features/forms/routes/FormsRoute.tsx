import {
  Badge,
  Button,
  Spinner,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Textarea,
  Title1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, CopyRegular, DeleteRegular, EditRegular, OpenRegular } from '@fluentui/react-icons';
import { errorMessage, type SignupForm } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog, EmptyState, ErrorPanel, RoleGate, RouterLink, parseRouteId } from '@mailroom/ui';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import { useDeleteSignupForm, useFormsAudience, useSignupForms } from '../api/forms';
import { embedSnippet } from '../components/embed-snippet';
import { FormEditorDialog } from '../components/FormEditorDialog';
import { PublicNameForm } from '../components/PublicNameForm';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  table: { overflowX: 'auto' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  snippet: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  code: { fontFamily: tokens.fontFamilyMonospace, minHeight: '12rem' },
});

/** /audiences/{id}/forms: the audience's sign-up forms, made and changed here, with each one's page and the HTML to paste into a site. */
export function FormsRoute() {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const id = parseRouteId(useParams().id);
  const audience = useFormsAudience(id ?? 0);
  const forms = useSignupForms(id ?? 0);
  const remove = useDeleteSignupForm();
  const [editing, setEditing] = useState<SignupForm | 'new'>();
  const [deleting, setDeleting] = useState<SignupForm>();
  const [shown, setShown] = useState<SignupForm>();
  // The widget is offered by default: without it a site's posts are held to a few an hour per network.
  const [withCheck, setWithCheck] = useState(true);

  if (id !== null && audience.isPending) return <Spinner label="Loading audience..." />;
  if (!audience.data) return <AudienceNotFound error={id === null ? null : audience.error} onRetry={() => void audience.refetch()} />;
  const { data } = audience;

  const copy = (text: string) =>
    navigator.clipboard.writeText(text).then(
      () => notify('success', 'The HTML is copied'),
      () => notify('error', 'Copying failed: select the HTML and copy it'),
    );

  return (
    <section className={styles.root} aria-labelledby="forms-title">
      <RouterLink to={`${basePath}/${data.id}`}>Back to {data.name}</RouterLink>
      <div className={styles.header}>
        <Title1 as="h1" id="forms-title">
          Sign-up forms
        </Title1>
        <RoleGate needs="editor" action="make sign-up forms">
          {(lock) => (
            <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing('new')} {...lock}>
              New form
            </Button>
          )}
        </RoleGate>
      </div>
      <Text>
        People join {data.name} through these forms: on the page each one has, or from your own site. Unless a form says otherwise they
        confirm by mail first; until then they are not among the contacts.
      </Text>
      <PublicNameForm key={data.id} audience={data} />
      {forms.isPending ? (
        <Spinner label="Loading forms..." />
      ) : forms.isError ? (
        <ErrorPanel message={errorMessage(forms.error, 'Failed to load the forms')} onRetry={() => void forms.refetch()} />
      ) : forms.data.length === 0 ? (
        <EmptyState title="No sign-up forms yet" description="Make one to let people join this audience by themselves." />
      ) : (
        <div className={styles.table}>
          <Table aria-label="Sign-up forms">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Confirmation</TableHeaderCell>
                <TableHeaderCell>Consent wording</TableHeaderCell>
                <TableHeaderCell>Actions</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {forms.data.map((form) => (
                <TableRow key={form.id}>
                  <TableCell>{form.name}</TableCell>
                  <TableCell>
                    {form.confirmationRequired ? <Badge appearance="tint">By mail</Badge> : <Badge appearance="outline">None</Badge>}
                  </TableCell>
                  <TableCell>Version {form.consentVersion}</TableCell>
                  <TableCell>
                    <div className={styles.actions}>
                      <Button
                        as="a"
                        size="small"
                        icon={<OpenRegular />}
                        href={form.hostedUrl}
                        target="_blank"
                        rel="noreferrer"
                        aria-label={`Open the page of ${form.name}`}
                      >
                        Page
                      </Button>
                      <RoleGate needs="editor" action="change sign-up forms">
                        {(lock) => (
                          <Button
                            size="small"
                            icon={<EditRegular />}
                            onClick={() => setEditing(form)}
                            aria-label={`Edit ${form.name}`}
                            {...lock}
                          >
                            Edit
                          </Button>
                        )}
                      </RoleGate>
                      <Button size="small" icon={<CopyRegular />} onClick={() => setShown(form)} aria-label={`HTML of ${form.name}`}>
                        HTML
                      </Button>
                      <RoleGate needs="editor" action="delete sign-up forms">
                        {(lock) => (
                          <Button
                            size="small"
                            icon={<DeleteRegular />}
                            onClick={() => setDeleting(form)}
                            aria-label={`Delete ${form.name}`}
                            {...lock}
                          >
                            Delete
                          </Button>
                        )}
                      </RoleGate>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {shown && (
        <section className={styles.snippet} aria-labelledby="snippet-title">
          <Text as="h2" weight="semibold" id="snippet-title">
            HTML of {shown.name}
          </Text>
          <Text>Paste it into your site (add the site to the form&apos;s allowed sites). The hosted page is {shown.hostedUrl}.</Text>
          <Switch
            checked={withCheck}
            onChange={(_event, { checked }) => setWithCheck(checked)}
            label="With the anti-robot check (needs JavaScript on the site)"
          />
          <Text>
            {withCheck
              ? `The check runs in the visitor's browser. If your site sets a Content-Security-Policy, it must allow scripts from ${new URL(shown.hostedUrl).origin} and workers from blob:.`
              : 'A plain form: it works without JavaScript, for a few sign-ups an hour from each network.'}
          </Text>
          <Textarea
            aria-labelledby="snippet-title"
            readOnly
            className={styles.code}
            value={embedSnippet(shown, {}, { check: withCheck })}
            resize="vertical"
          />
          <div className={styles.actions}>
            <Button icon={<CopyRegular />} onClick={() => void copy(embedSnippet(shown, {}, { check: withCheck }))}>
              Copy HTML
            </Button>
            <Button onClick={() => setShown(undefined)}>Close</Button>
          </div>
        </section>
      )}
      {editing && (
        <FormEditorDialog
          audienceId={data.id}
          fieldKeys={data.headers}
          {...(editing === 'new' ? {} : { form: editing })}
          onClose={() => setEditing(undefined)}
          onSaved={(form) => {
            setEditing(undefined);
            notify('success', `Saved ${form.name}`);
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title="Delete this form?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => setDeleting(undefined),
            onError: (failure) => notify('error', errorMessage(failure, 'The form was not deleted')),
          })
        }
      >
        Its page stops working and its unconfirmed sign-ups are removed. Contacts who joined through it stay, and so does their consent
        record.
      </ConfirmDialog>
    </section>
  );
}
