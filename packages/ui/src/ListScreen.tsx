import { Button, Spinner, Title1, makeStyles, tokens, useId } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import type { Role } from '@mailroom/mf-contract/roles';
import { RoleGate, type RoleLock } from './RoleGate';

export interface ListScreenProps {
  /** The screen's heading, e.g. 'Audiences'. */
  title: string;
  /** The create button's text, e.g. 'Create Audience'. */
  createLabel: string;
  onCreate: () => void;
  /** A create request is in flight: the button waits with a spinner, so one click makes one item. */
  creating?: boolean;
  /**
   * The lowest role allowed to create, and what creating is in words ('create audiences'): below it, the button is
   * disabled with a tooltip saying who can (RoleGate). Unset: the button is everyone's.
   */
  createNeeds?: { role: Role; action: string };
  /** More buttons beside the create button (e.g. the audiences' Suppressions). */
  actions?: ReactNode;
  /** The list (a PagedListSection) and what the screen opens over it. */
  children: ReactNode;
}

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
});

/** A list screen (audiences, templates, campaigns): its heading with the create button, then the list. */
export function ListScreen({ title, createLabel, onCreate, creating = false, createNeeds, actions, children }: ListScreenProps) {
  const styles = useStyles();
  const titleId = useId('list-title');
  const createButton = (lock: RoleLock) => (
    <Button
      appearance="primary"
      icon={creating ? <Spinner size="tiny" /> : <AddRegular />}
      disabled={creating}
      onClick={onCreate}
      {...lock}
    >
      {createLabel}
    </Button>
  );
  return (
    <section className={styles.root} aria-labelledby={titleId}>
      <div className={styles.header}>
        <Title1 as="h1" id={titleId}>
          {title}
        </Title1>
        <div className={styles.actions}>
          {actions}
          {createNeeds ? (
            <RoleGate needs={createNeeds.role} action={createNeeds.action}>
              {createButton}
            </RoleGate>
          ) : (
            createButton({})
          )}
        </div>
      </div>
      {children}
    </section>
  );
}
