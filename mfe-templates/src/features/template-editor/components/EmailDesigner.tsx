import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useRemote } from '@mailroom/mf-contract/react';
import { useEffect, useRef, useState } from 'react';
import EmailEditor, { type EditorRef } from 'react-email-editor';
import type { TemplateDraft } from '../api/templateEditor';
import { loadEditorScript } from '../lib/editorScript';
import { MERGE_TAGS } from '../lib/mergeTags';

export type Editor = NonNullable<EditorRef['editor']>;

/** Past this without a ready editor (script and editor frame), the page says the editor did not load. */
export const EDITOR_READY_TIMEOUT_MS = 30_000;

/** The editor's current design and its html. */
export function exportDraft(editor: Editor): Promise<TemplateDraft> {
  return new Promise((resolve) =>
    editor.exportHtml((data) => resolve({ design: data.design as unknown as Record<string, unknown>, html: data.html })),
  );
}

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, flexGrow: 1 },
  editor: { display: 'flex', minHeight: '640px', height: 'calc(100vh - 240px)' },
});

type LoadState = 'loading' | 'starting' | 'ready' | 'failed';

export interface EmailDesignerProps {
  /** Loaded into the editor once it is ready; null leaves it blank. */
  design: Record<string, unknown> | null;
  onReady: (editor: Editor) => void;
  /** Every design change, exported with its html. */
  onChange: (draft: TemplateDraft) => void;
}

/**
 * The drag-and-drop editor (react-email-editor) with the spec's merge tags. Its script comes from the
 * deployment's `features.emailEditorScriptUrl`; when it cannot load, or the editor does not start in
 * time, the page says so and offers a retry instead of spinning.
 */
export function EmailDesigner({ design, onReady, onChange }: EmailDesignerProps) {
  const styles = useStyles();
  const { features, theme } = useRemote();
  const scriptUrl = features.emailEditorScriptUrl;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>('loading');
  // Fixed for the editor's life: new options would make the wrapper start a new editor.
  const [options] = useState(() => ({
    mergeTags: MERGE_TAGS,
    appearance: { theme: theme === 'dark' ? ('modern_dark' as const) : ('modern_light' as const) },
  }));
  const [initialDesign] = useState(design);
  const callbacks = useRef({ onReady, onChange });
  useEffect(() => {
    callbacks.current = { onReady, onChange };
  });

  useEffect(() => {
    let active = true;
    // A new script address starts over: the state must say so before the script loads.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setState('loading');
    loadEditorScript(scriptUrl).then(
      () => active && setState('starting'),
      () => active && setState('failed'),
    );
    return () => {
      active = false;
    };
  }, [scriptUrl, attempt]);

  const waiting = state === 'loading' || state === 'starting';
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setState('failed'), EDITOR_READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waiting, attempt]);

  const ready = (editor: Editor) => {
    // The wrapper's types ask for Unlayer's design type; the stored design is that JSON.
    if (initialDesign) editor.loadDesign(initialDesign as unknown as Parameters<Editor['loadDesign']>[0]);
    editor.addEventListener('design:updated', () => {
      void exportDraft(editor).then((draft) => callbacks.current.onChange(draft));
    });
    setState('ready');
    callbacks.current.onReady(editor);
  };

  return (
    <div className={styles.root}>
      {state === 'failed' && (
        <MessageBar intent="error" layout="multiline" role="alert">
          <MessageBarBody>
            <MessageBarTitle>The email editor could not be loaded</MessageBarTitle>
            Its script did not load, so this template cannot be edited right now. The saved design is unchanged. Check the connection and
            try again.
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => setAttempt((count) => count + 1)}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {waiting && <Spinner label="Loading the email editor..." />}
      {(state === 'starting' || state === 'ready') && (
        <div className={styles.editor}>
          <EmailEditor key={attempt} scriptUrl={scriptUrl} options={options} onReady={ready} minHeight={640} />
        </div>
      )}
    </div>
  );
}
