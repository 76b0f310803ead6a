import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';

export interface NameSearchFormProps {
  /** The name the list is filtered by now (from the URL); the box follows it when it changes from outside. */
  value: string;
  /** Runs on the Search button or Enter with the text as typed (the caller trims it). */
  onSearch: (name: string) => void;
  label?: string;
}

const useStyles = makeStyles({
  root: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalS },
  input: { minWidth: '260px', maxWidth: '100%' },
});

/** A list screen's name search: a box and a Search button; Enter searches too (docs/product.md, Search button or Enter). */
export function NameSearchForm({ value, onSearch, label = 'Search by name' }: NameSearchFormProps) {
  const styles = useStyles();
  const [text, setText] = useState(value);

  // Back/forward changes the URL under the box: the box follows (adjusted while rendering, not in an effect).
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    setText(value);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text);
  };

  return (
    <form role="search" className={styles.root} onSubmit={submit}>
      <Field label={label}>
        <Input
          className={styles.input}
          type="search"
          value={text}
          contentBefore={<SearchRegular />}
          onChange={(_, data) => setText(data.value)}
        />
      </Field>
      <Button type="submit">Search</Button>
    </form>
  );
}
