import { Checkbox, Field, Input, Switch, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type SignupForm, type SignupFormField, type SignupFormInput } from '@mailroom/api-client';
import { FormDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useSaveSignupForm } from '../api/forms';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  fields: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  fieldRow: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalM },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export interface FormEditorDialogProps {
  audienceId: number;
  /** The audience's field keys, in order (audiences.headers). */
  fieldKeys: string[];
  /** The form to change; a new one without. */
  form?: SignupForm;
  onClose: () => void;
  onSaved: (form: SignupForm) => void;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Makes or changes a sign-up form: its public texts, the fields it asks for, consent, confirmation, thanks, sites, mail. */
export function FormEditorDialog({ audienceId, fieldKeys, form, onClose, onSaved }: FormEditorDialogProps) {
  const styles = useStyles();
  const save = useSaveSignupForm(audienceId);
  const [name, setName] = useState(form?.name ?? '');
  const [description, setDescription] = useState(form?.description ?? '');
  const [fields, setFields] = useState<SignupFormField[]>(form?.fields ?? []);
  const [consentWording, setConsentWording] = useState(form?.consentWording ?? 'I agree to receive emails from this list.');
  const [confirmationRequired, setConfirmationRequired] = useState(form?.confirmationRequired ?? true);
  const [successMessage, setSuccessMessage] = useState(form?.successMessage ?? '');
  const [successUrl, setSuccessUrl] = useState(form?.successUrl ?? '');
  const [origins, setOrigins] = useState((form?.allowedOrigins ?? []).join('\n'));
  const [mailSubject, setMailSubject] = useState(form?.mailSubject ?? '');
  const [mailText, setMailText] = useState(form?.mailText ?? '');
  const [error, setError] = useState<string>();

  const asked = (key: string) => fields.find((field) => field.key === key);
  const toggle = (key: string, ask: boolean) =>
    setFields((current) => (ask ? [...current, { key, required: false }] : current.filter((field) => field.key !== key)));
  const setRequired = (key: string, required: boolean) =>
    setFields((current) => current.map((field) => (field.key === key ? { ...field, required } : field)));

  const submit = () => {
    const input: SignupFormInput = {
      name,
      description,
      fields,
      consentWording,
      confirmationRequired,
      successMessage,
      successUrl: successUrl.trim() || null,
      allowedOrigins: lines(origins),
      mailSubject,
      mailText,
    };
    save.mutate(
      { ...(form ? { id: form.id } : {}), input },
      { onSuccess: onSaved, onError: (failure) => setError(errorMessage(failure, 'The form was not saved')) },
    );
  };

  return (
    <FormDialog
      title={form ? 'Edit sign-up form' : 'New sign-up form'}
      submitLabel={form ? 'Save' : 'Create'}
      busy={save.isPending}
      submitDisabled={!name.trim() || !consentWording.trim()}
      onSubmit={submit}
      onClose={onClose}
      contentClassName={styles.content}
    >
      <Field label="Public name" required>
        <Input value={name} onChange={(_, data) => setName(data.value)} maxLength={200} />
      </Field>
      <Field label="Description">
        <Textarea value={description} onChange={(_, data) => setDescription(data.value)} maxLength={2000} />
      </Field>
      <fieldset className={styles.fields}>
        <legend>Fields asked (the email address always is)</legend>
        {fieldKeys.length === 0 && <span>This audience has no other fields.</span>}
        {fieldKeys.map((key) => (
          <div key={key} className={styles.fieldRow}>
            <Checkbox label={key} checked={!!asked(key)} onChange={(_, data) => toggle(key, data.checked === true)} />
            {asked(key) && (
              <Switch label={`${key} required`} checked={asked(key)!.required} onChange={(_, data) => setRequired(key, data.checked)} />
            )}
          </div>
        ))}
      </fieldset>
      <Field
        label="Consent wording"
        hint="What the person agrees to. Once someone agreed to it, a change keeps this wording as a version."
        required
      >
        <Textarea value={consentWording} onChange={(_, data) => setConsentWording(data.value)} maxLength={4000} />
      </Field>
      <Switch
        label="Ask for confirmation by mail (double opt-in)"
        checked={confirmationRequired}
        onChange={(_, data) => setConfirmationRequired(data.checked)}
      />
      <Field label="Message after submitting" hint="Left empty: a sensible default.">
        <Textarea value={successMessage} onChange={(_, data) => setSuccessMessage(data.value)} maxLength={1000} />
      </Field>
      <Field label="Or a page of thanks on your site" hint="A full address on one of the sites below.">
        <Input type="url" value={successUrl} onChange={(_, data) => setSuccessUrl(data.value)} maxLength={2000} />
      </Field>
      <Field label="Sites allowed to post to this form" hint="One origin a line, such as https://www.example.org.">
        <Textarea value={origins} onChange={(_, data) => setOrigins(data.value)} />
      </Field>
      {confirmationRequired && (
        <>
          <Field label="Confirmation mail subject" hint="Left empty: a sensible default.">
            <Input value={mailSubject} onChange={(_, data) => setMailSubject(data.value)} maxLength={200} />
          </Field>
          <Field label="Confirmation mail text" hint="{{confirmUrl}} is the link. Left empty: a sensible default.">
            <Textarea value={mailText} onChange={(_, data) => setMailText(data.value)} maxLength={5000} rows={6} />
          </Field>
        </>
      )}
      <div role="alert" className={styles.error}>
        {error}
      </div>
    </FormDialog>
  );
}
