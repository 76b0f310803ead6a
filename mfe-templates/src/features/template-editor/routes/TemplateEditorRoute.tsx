import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type Template } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { EditableTitle, RouterLink, parseRouteId, RoleGate, useRoleAllows, whoCanDo } from '@mailroom/ui';
import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useRenameTemplate, useTemplate } from '../api/templateEditor';
import { EmailDesigner, exportDraft, type Editor } from '../components/EmailDesigner';
import { SaveIndicator } from '../components/SaveIndicator';
import { TemplateNotFound } from '../components/TemplateNotFound';
import { useAutosave } from '../hooks/useAutosave';
import { keptDraft } from '../lib/keptDraft';

const NAME_LABELS = { edit: 'Edit name', input: 'Name...', save: 'Save', cancel: 'Cancel' };

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  actions: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
});

const ignoreChange = () => undefined;

/** /templates/edit/{id}: the template's name and its design in the email editor. */
export function TemplateEditorRoute() {
  const id = parseRouteId(useParams().id);
  const template = useTemplate(id ?? 0);

  if (id === null) return <TemplateNotFound error={null} onRetry={() => undefined} />;
  // Fetched afresh on every visit: the editor loads the stored design, not a cached one.
  if (!template.isFetchedAfterMount) return <Spinner label="Loading template..." />;
  if (template.status === 'error' || !template.data) {
    return <TemplateNotFound error={template.error} onRetry={() => void template.refetch()} />;
  }
  return <TemplateEditor key={template.data.id} template={template.data} />;
}

function TemplateEditor({ template }: { template: Template }) {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const [restored] = useState(() => keptDraft.read(template.id));
  const autosave = useAutosave(template.id, restored);
  /** A viewer may look through the design (issue 27); nothing it changes is kept or sent to the API. */
  const mayEdit = useRoleAllows('editor');
  const renameTemplate = useRenameTemplate(template.id);
  const editor = useRef<Editor | null>(null);
  const [ready, setReady] = useState(false);
  const [exiting, setExiting] = useState(false);

  const rename = (name: string) =>
    renameTemplate.mutateAsync(name).then(
      () => notify('success', 'Successfully renamed template'),
      (error: unknown) => {
        notify('error', errorMessage(error, 'Failed to rename template'));
        throw error;
      },
    );

  const saveAndExit = async () => {
    if (!editor.current) return;
    setExiting(true);
    const saved = await autosave.saveNow(await exportDraft(editor.current));
    setExiting(false);
    if (saved) void navigate(basePath);
  };

  return (
    <section className={styles.root}>
      <RouterLink to={basePath}>Back to Templates</RouterLink>
      <div className={styles.header}>
        <EditableTitle name={template.name} labels={NAME_LABELS} onSave={rename} needs="editor" />
        <div className={styles.actions}>
          <SaveIndicator status={autosave.status} />
          <RoleGate needs="editor" action="save templates">
            {(lock) => (
              <Button
                appearance="primary"
                disabled={!ready || exiting}
                icon={exiting ? <Spinner size="tiny" /> : undefined}
                onClick={() => void saveAndExit()}
                {...lock}
              >
                Save and Exit
              </Button>
            )}
          </RoleGate>
        </div>
      </div>
      {restored && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            Changes that were not saved when you last left this template are back in the editor and will be saved shortly.
          </MessageBarBody>
        </MessageBar>
      )}
      {!mayEdit && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            {whoCanDo('editor', 'change templates')}: you can look through this design, but nothing you change here is saved.
          </MessageBarBody>
        </MessageBar>
      )}
      <EmailDesigner
        design={restored?.design ?? template.design}
        onReady={(instance) => {
          editor.current = instance;
          setReady(true);
        }}
        onChange={mayEdit ? autosave.change : ignoreChange}
      />
    </section>
  );
}
