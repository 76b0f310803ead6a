import { Field, Input, makeStyles } from '@fluentui/react-components';
import { EditorSection } from './EditorSection';

const useStyles = makeStyles({
  field: { width: '100%', maxWidth: '640px' },
});

export interface SubjectSectionProps {
  subject: string;
  previewText: string;
  onChange: (change: { subject?: string; previewText?: string }) => void;
  /** A campaign no longer a draft: shown, not edited. */
  disabled?: boolean;
}

export function SubjectSection({ subject, previewText, onChange, disabled = false }: SubjectSectionProps) {
  const styles = useStyles();
  return (
    <EditorSection value="subject" title="Subject" done={subject.trim() !== ''} summary={subject.trim() || 'What is this email about?'}>
      <Field className={styles.field} label="Subject">
        <Input value={subject} maxLength={998} disabled={disabled} onChange={(_, data) => onChange({ subject: data.value })} />
      </Field>
      <Field className={styles.field} label="Preview text" hint="Shown after the subject in most inboxes.">
        <Input value={previewText} maxLength={500} disabled={disabled} onChange={(_, data) => onChange({ previewText: data.value })} />
      </Field>
    </EditorSection>
  );
}
