import { Checkbox, Field, Input, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type Audience, type LawfulBasis } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { FormDialog } from '@mailroom/ui';
import { useState } from 'react';
import { LawfulBasisField } from '../../../../components/LawfulBasisField';
import { useAddContact } from '../../api/contact';
import { useAudienceFields } from '../../api/fields';
import { FieldInputs, changedValues, fieldError, formValuesOf, type FormValues } from './FieldInputs';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/** The server's refusal of an erased address (the API's words): the member may then say the person consented again. */
const ERASED = /^This address was erased on /;

/**
 * 'Add contact': the address and the same field form as the drawer, checked alike. An empty audience
 * that gets a contact by hand takes no import afterwards: the dialog says so before it is added.
 */
export function AddContactDialog({ audience, onClose }: { audience: Audience; onClose: () => void }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const add = useAddContact(audience.id);
  const [email, setEmail] = useState('');
  const [values, setValues] = useState<FormValues | undefined>(undefined);
  const [freshConsent, setFreshConsent] = useState(false);
  // Recorded in the consent ledger with the contact; most contacts added by hand gave their consent elsewhere.
  const [lawfulBasis, setLawfulBasis] = useState<LawfulBasis>('CONSENT');
  const [shown, setShown] = useState(false);
  const fields = useAudienceFields(audience.id);
  const definitions = fields.data ?? [];
  const current = values ?? formValuesOf(definitions, {});
  const errors = Object.fromEntries(definitions.map((field) => [field.key, fieldError(field, current[field.key])]));
  const emailError = email.trim() === '' ? 'Type the address.' : undefined;
  const invalid = emailError !== undefined || Object.values(errors).some(Boolean);
  const refusedAsErased = add.isError && ERASED.test(errorMessage(add.error, ''));

  return (
    <FormDialog
      title="Add contact"
      submitLabel="Add"
      busy={add.isPending}
      contentClassName={styles.content}
      onClose={onClose}
      onSubmit={() => {
        setShown(true);
        if (invalid) return;
        add.mutate(
          {
            email: email.trim(),
            data: changedValues(definitions, formValuesOf(definitions, {}), current),
            lawfulBasis,
            ...(freshConsent ? { freshConsent: true } : {}),
          },
          {
            onSuccess: (contact) => {
              notify('success', `Added ${contact.email}`);
              onClose();
            },
          },
        );
      }}
    >
      {audience.source === null && audience.numberOfContacts === 0 && (
        <MessageBar intent="info">
          <MessageBarBody>This audience has no contacts yet. Once one is added by hand, it can no longer take an import.</MessageBarBody>
        </MessageBar>
      )}
      {add.isError && (
        <MessageBar intent="error">
          <MessageBarBody>{errorMessage(add.error, 'The contact was not added.')}</MessageBarBody>
        </MessageBar>
      )}
      <Field label="Email" required validationMessage={shown ? emailError : undefined}>
        <Input type="email" value={email} onChange={(_, data) => setEmail(data.value)} />
      </Field>
      <FieldInputs
        fields={definitions}
        values={current}
        errors={shown ? errors : {}}
        onChange={(key, value) => setValues({ ...current, [key]: value })}
      />
      <LawfulBasisField value={lawfulBasis} onChange={setLawfulBasis} disabled={add.isPending} />
      {(refusedAsErased || freshConsent) && (
        <Checkbox
          checked={freshConsent}
          onChange={(_, data) => setFreshConsent(data.checked === true)}
          label="The person has given their consent again"
        />
      )}
    </FormDialog>
  );
}
