import { Button, Field, Input, Select, makeStyles } from '@fluentui/react-components';
import { errorMessage } from '@mailroom/api-client';
import { useAuthorizedSenders } from '../api/campaign';
import { isAuthorizedSender } from '../utils/presend';
import { EditorSection } from './EditorSection';

const useStyles = makeStyles({
  field: { width: '100%', maxWidth: '480px' },
});

export interface FromSectionProps {
  fromName: string;
  fromEmail: string;
  onChange: (change: { fromName?: string; fromEmail?: string }) => void;
  /** A campaign no longer a draft: shown, not edited. */
  disabled?: boolean;
}

/** The sender: a free name, and an address chosen from the organisation's authorized ones (docs/product.md, the screens' checks). */
export function FromSection({ fromName, fromEmail, onChange, disabled = false }: FromSectionProps) {
  const styles = useStyles();
  const senders = useAuthorizedSenders();
  const addresses = senders.data ?? [];
  // A stored address the organisation no longer authorizes is shown as not chosen.
  const unauthorized = senders.isSuccess && fromEmail !== '' && !addresses.includes(fromEmail);
  const done = fromName.trim() !== '' && senders.isSuccess && isAuthorizedSender(fromEmail, addresses);
  const summary = [fromName.trim(), unauthorized ? '' : fromEmail].filter(Boolean).join(' · ') || 'Who is sending this campaign?';

  return (
    <EditorSection value="from" title="From" done={done} summary={summary}>
      <Field className={styles.field} label="Name">
        <Input value={fromName} maxLength={200} disabled={disabled} onChange={(_, data) => onChange({ fromName: data.value })} />
      </Field>
      <Field
        className={styles.field}
        label="Email"
        hint={senders.isSuccess && addresses.length > 0 ? 'Only the organisation’s authorized addresses can send.' : undefined}
        validationState={senders.isError || unauthorized || (senders.isSuccess && addresses.length === 0) ? 'error' : 'none'}
        validationMessage={
          senders.isError
            ? errorMessage(senders.error, 'Failed to load the authorized addresses')
            : unauthorized
              ? `${fromEmail} is no longer an authorized address; choose another.`
              : senders.isSuccess && addresses.length === 0
                ? 'No sender address is authorized yet; ask an administrator.'
                : undefined
        }
      >
        <Select
          value={unauthorized ? '' : fromEmail}
          disabled={disabled || !senders.isSuccess}
          onChange={(_, data) => onChange({ fromEmail: data.value })}
        >
          <option value="">{senders.isPending ? 'Loading addresses...' : 'Choose an address'}</option>
          {addresses.map((address) => (
            <option key={address} value={address}>
              {address}
            </option>
          ))}
        </Select>
      </Field>
      {senders.isError && <Button onClick={() => void senders.refetch()}>Retry</Button>}
    </EditorSection>
  );
}
