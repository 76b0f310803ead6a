import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { RoleGate, useRoleAllows } from '@mailroom/ui';
import { useState } from 'react';
import { useSetPublicName } from '../api/forms';

/** The API's bound, after trimming. */
const MAX_LENGTH = 100;

const useStyles = makeStyles({
  root: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  field: { flexGrow: 1, minWidth: 'min(100%, 20rem)', maxWidth: '36rem' },
});

/**
 * The audience's public name (issue 25): what subscribers see for it in their preferences. Without one the
 * audience is not shown there at all, so its internal name never reaches the public.
 */
export function PublicNameForm({ audience }: { audience: Audience }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const save = useSetPublicName(audience.id);
  const [value, setValue] = useState(audience.publicName ?? '');
  const [error, setError] = useState<string>();
  const trimmed = value.trim();
  const changed = trimmed !== (audience.publicName ?? '');
  // Enter in the field submits too: the lock holds for it as for the button.
  const mayChange = useRoleAllows('editor');

  const submit = () => {
    setError(undefined);
    save.mutate(trimmed === '' ? null : trimmed, {
      onSuccess: (saved) => {
        setValue(saved.publicName ?? '');
        notify('success', saved.publicName ? 'The public name is saved' : 'The public name is cleared');
      },
      onError: (failure) => setError(errorMessage(failure, 'The public name was not saved')),
    });
  };

  return (
    <form
      className={styles.root}
      onSubmit={(event) => {
        event.preventDefault();
        if (mayChange && changed && trimmed.length <= MAX_LENGTH) submit();
      }}
    >
      <Field
        className={styles.field}
        label="Name shown to subscribers in their preferences"
        hint="Leave it empty to keep this audience out of the preference centre."
        validationMessage={error ?? (trimmed.length > MAX_LENGTH ? `At most ${MAX_LENGTH} characters.` : undefined)}
      >
        <Input value={value} onChange={(_, data) => setValue(data.value)} />
      </Field>
      <RoleGate needs="editor" action="change the public name">
        {(lock) => (
          <Button type="submit" disabled={!changed || trimmed.length > MAX_LENGTH || save.isPending} {...lock}>
            Save
          </Button>
        )}
      </RoleGate>
    </form>
  );
}
