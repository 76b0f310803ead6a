import {
  Button,
  DrawerBody,
  DrawerFooter,
  DrawerHeader,
  DrawerHeaderTitle,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  OverlayDrawer,
  Spinner,
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DeleteRegular, DismissRegular } from '@fluentui/react-icons';
import { errorMessage, type ContactDetail } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog, ErrorPanel, formatDateTime, RoleGate } from '@mailroom/ui';
import { useState, type FormEvent } from 'react';
import { ConsentList } from '../../../../components/ConsentList';
import { PersonMails } from '../../../../components/PersonMails';
import { useContact, useDeleteContact, useUpdateContact } from '../../api/contact';
import { ConsentHistory } from './ConsentHistory';
import { FieldInputs, changedValues, fieldError, formValuesOf, type FormValues } from './FieldInputs';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalL },
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
});

/** The contact's form: its address and fields, checked as the API checks them; Save sends only what changed. */
function ContactForm({ contact, onClose }: { contact: ContactDetail; onClose: () => void }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const update = useUpdateContact(contact.audienceId, contact.id);
  const initial = formValuesOf(contact.fields, contact.data);
  const [email, setEmail] = useState(contact.email);
  const [values, setValues] = useState<FormValues>(initial);
  const [shown, setShown] = useState(false);
  const errors = Object.fromEntries(contact.fields.map((field) => [field.key, fieldError(field, values[field.key])]));
  const emailError = email.trim() === '' ? 'Type the address.' : undefined;
  const invalid = emailError !== undefined || Object.values(errors).some(Boolean);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (invalid || update.isPending) return;
    const data = changedValues(contact.fields, initial, values);
    const addressChanged = email.trim() !== contact.email;
    if (!addressChanged && Object.keys(data).length === 0) return onClose();
    update.mutate(
      { ...(addressChanged ? { email: email.trim() } : {}), ...(Object.keys(data).length > 0 ? { data } : {}) },
      { onSuccess: () => notify('success', 'Contact saved') },
    );
  };

  return (
    <form className={styles.form} onSubmit={save} noValidate aria-label="Contact fields">
      {update.isError && (
        <MessageBar intent="error">
          <MessageBarBody>{errorMessage(update.error, 'The contact was not saved.')}</MessageBarBody>
        </MessageBar>
      )}
      {contact.errorMessage && (
        <MessageBar intent="warning">
          <MessageBarBody>Not sent to: {contact.errorMessage}</MessageBarBody>
        </MessageBar>
      )}
      <Field label="Email" required validationMessage={shown ? emailError : undefined}>
        <Input type="email" value={email} onChange={(_, data) => setEmail(data.value)} />
      </Field>
      <FieldInputs
        fields={contact.fields}
        values={values}
        errors={shown ? errors : {}}
        onChange={(key, value) => setValues((before) => ({ ...before, [key]: value }))}
      />
      <div className={styles.actions}>
        <RoleGate needs="editor" action="change contacts">
          {(lock) => (
            <Button
              type="submit"
              appearance="primary"
              disabledFocusable={update.isPending}
              icon={update.isPending ? <Spinner size="tiny" /> : undefined}
              {...lock}
            >
              Save
            </Button>
          )}
        </RoleGate>
        <Button onClick={onClose} disabledFocusable={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** What the drawer shows below the form: consent, mails and suppression. */
function ContactHistory({ contact }: { contact: ContactDetail }) {
  const styles = useStyles();
  const suppression = contact.suppression;
  return (
    <>
      <section className={styles.section} aria-labelledby="contact-consent">
        <Title3 as="h3" id="contact-consent">
          Consent history
        </Title3>
        {/* A contact from before the ledger recorded imports and additions: how it came in, from the activity log. */}
        {contact.consentHistory.length > 0 ? (
          <ConsentHistory entries={contact.consentHistory} />
        ) : (
          <ConsentList events={contact.consent} className={styles.list} />
        )}
      </section>
      <section className={styles.section} aria-labelledby="contact-mails">
        <Title3 as="h3" id="contact-mails">
          Campaigns sent
        </Title3>
        {contact.mails.length === 0 ? (
          <Text>No campaign was sent to this contact yet.</Text>
        ) : (
          <>
            <PersonMails mails={contact.mails} />
            {contact.totalMails > contact.mails.length && (
              <Text>
                The newest {contact.mails.length} of {contact.totalMails}.
              </Text>
            )}
          </>
        )}
      </section>
      <section className={styles.section} aria-labelledby="contact-suppression">
        <Title3 as="h3" id="contact-suppression">
          Suppression
        </Title3>
        <Text>
          {suppression
            ? `${SUPPRESSION_REASON_LABELS[suppression.reason]} since ${formatDateTime(suppression.createdAt)}${
                suppression.campaignName ? `, from ${suppression.campaignName}` : ''
              }: no campaign is sent to it.`
            : 'Not suppressed.'}
        </Text>
      </section>
    </>
  );
}

/**
 * A contact's drawer (issue 24): its fields as a form, how it came in, the campaigns it was sent and its
 * suppression; Delete asks first. Mount it to open it; Escape or Close closes it.
 */
export function ContactDrawer({ audienceId, contactId, onClose }: { audienceId: number; contactId: number; onClose: () => void }) {
  const { notify } = useRemote();
  const contact = useContact(audienceId, contactId);
  const remove = useDeleteContact(audienceId);
  const [confirming, setConfirming] = useState(false);

  return (
    <OverlayDrawer open position="end" size="medium" onOpenChange={(_, data) => !data.open && onClose()}>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label="Close" icon={<DismissRegular />} onClick={onClose} />}>
          {contact.data?.email ?? 'Contact'}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        {contact.isPending ? (
          <Spinner label="Loading the contact..." />
        ) : contact.isError ? (
          <ErrorPanel
            title="Failed to load the contact"
            message={errorMessage(contact.error, 'The contact could not be read.')}
            onRetry={() => void contact.refetch()}
          />
        ) : (
          <>
            <ContactForm key={contact.data.id} contact={contact.data} onClose={onClose} />
            <ContactHistory contact={contact.data} />
          </>
        )}
      </DrawerBody>
      {contact.data && (
        <DrawerFooter>
          <RoleGate needs="editor" action="delete contacts">
            {(lock) => (
              <Button icon={<DeleteRegular />} onClick={() => setConfirming(true)} {...lock}>
                Delete contact
              </Button>
            )}
          </RoleGate>
        </DrawerFooter>
      )}
      {confirming && contact.data && (
        <ConfirmDialog
          open
          title="Delete contact"
          confirmLabel="Delete"
          busy={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(contactId, {
              onSuccess: () => {
                notify('success', `Deleted ${contact.data.email}`);
                onClose();
              },
              onError: (error) => {
                notify('error', errorMessage(error, 'Failed to delete the contact'));
                setConfirming(false);
              },
            })
          }
        >
          Delete {contact.data.email} from this audience? Its campaigns’ reports keep what was sent to it. This cannot be undone.
        </ConfirmDialog>
      )}
    </OverlayDrawer>
  );
}
