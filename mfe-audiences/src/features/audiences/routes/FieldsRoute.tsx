import { Button, Spinner, Text, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, TextBulletListSquareRegular } from '@fluentui/react-icons';
import { errorMessage, type AudienceField } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { EmptyState, ErrorPanel, parseRouteId, RoleGate, RouterLink } from '@mailroom/ui';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import { useAudience } from '../api/audiences';
import { useAddField, useAudienceFields, useChangeField } from '../api/fields';
import { FieldDialog } from '../components/FieldDialog';
import { FieldsTable } from '../components/FieldsTable';
import { RemoveFieldDialog } from '../components/RemoveFieldDialog';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  note: { color: tokens.colorNeutralForeground2 },
});

/**
 * /audiences/{id}/fields (issue 24, an addition to the spec's routes): the audience's typed fields, to add, rename
 * (the key stays), change and remove. Every change is refused while the audience imports; the server says so.
 */
export function FieldsRoute() {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const id = parseRouteId(useParams().id);
  const audience = useAudience(id ?? 0);
  const fields = useAudienceFields(id ?? 0);
  const add = useAddField(id ?? 0);
  const change = useChangeField(id ?? 0);
  const [editing, setEditing] = useState<AudienceField | 'new'>();
  const [removing, setRemoving] = useState<AudienceField>();

  if (id !== null && audience.isPending) return <Spinner label="Loading audience..." />;
  if (!audience.data) return <AudienceNotFound error={id === null ? null : audience.error} onRetry={() => void audience.refetch()} />;

  const list = fields.data ?? [];
  const close = () => {
    setEditing(undefined);
    add.reset();
    change.reset();
  };
  const addButton = (
    <RoleGate needs="editor" action="add fields">
      {(lock) => (
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing('new')} {...lock}>
          Add field
        </Button>
      )}
    </RoleGate>
  );

  return (
    <section className={styles.root} aria-labelledby="fields-title">
      <RouterLink to={`${basePath}/${audience.data.id}`}>Back to {audience.data.name}</RouterLink>
      <div className={styles.header}>
        <Title1 as="h1" id="fields-title">
          Fields of {audience.data.name}
        </Title1>
        {list.length > 0 && addButton}
      </div>
      <Text className={styles.note}>
        Each field has a key, which templates use as a merge tag such as {'{{firstName}}'} (or {'{{firstName|friend}}'} with a fallback for
        contacts without a value), a label, and a type its values are checked against.
      </Text>
      {fields.isError ? (
        <ErrorPanel message={errorMessage(fields.error, 'Failed to load the fields')} onRetry={() => void fields.refetch()} />
      ) : fields.isPending ? (
        <Spinner label="Loading fields..." />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<TextBulletListSquareRegular />}
          title="No fields yet"
          description="Add the fields your contacts hold, such as a first name or a birthday, or import a file."
          action={addButton}
        />
      ) : (
        <FieldsTable fields={list} onChange={setEditing} onRemove={setRemoving} />
      )}

      {editing && (
        <FieldDialog
          field={editing === 'new' ? undefined : editing}
          takenKeys={list.map((field) => field.key)}
          busy={add.isPending || change.isPending}
          error={add.error ?? change.error}
          onAdd={(input) =>
            add.mutate(input, {
              onSuccess: (field) => {
                notify('success', `Field ${field.label} added`);
                close();
              },
            })
          }
          onChange={(key, body) =>
            change.mutate(
              { key, change: body },
              {
                onSuccess: (field) => {
                  notify('success', `Field ${field.label} saved`);
                  close();
                },
              },
            )
          }
          onClose={close}
        />
      )}
      {removing && <RemoveFieldDialog audienceId={audience.data.id} field={removing} onClose={() => setRemoving(undefined)} />}
    </section>
  );
}
