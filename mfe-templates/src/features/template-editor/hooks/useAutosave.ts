import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSaveTemplate, type TemplateDraft } from '../api/templateEditor';
import { keptDraft } from '../lib/keptDraft';

/** Template autosave debounce (docs/product.md, Limits and constants). */
export const AUTOSAVE_DEBOUNCE_MS = 30_000;
/** A failed save is tried again after the debounce, then twice as long each time, up to this. */
export const AUTOSAVE_RETRY_MAX_MS = 5 * 60_000;

/** idle: nothing changed yet; unsaved: a change waits for the debounce; failed: the last save failed. */
export type SaveStatus = 'idle' | 'unsaved' | 'saving' | 'saved' | 'failed';

export function retryDelay(failures: number): number {
  return Math.min(AUTOSAVE_DEBOUNCE_MS * 2 ** Math.max(0, failures - 1), AUTOSAVE_RETRY_MAX_MS);
}

/**
 * Saves the editor's latest draft 30 s after the last change. docs/product.md, Messages and behaviour worth knowing leaves failed saves silent;
 * here the member is told, the draft is kept and the save is tried again. Leaving the editor inside
 * the app saves what is pending; leaving the page (reload, close) asks first and keeps the draft in
 * the tab's session storage, where the editor finds it next time (`restored`).
 */
export function useAutosave(templateId: number, restored: TemplateDraft | null) {
  const { notify } = useRemote();
  const { mutateAsync: save } = useSaveTemplate(templateId);
  const saveRef = useRef(save);
  const notifyRef = useRef(notify);
  useEffect(() => {
    saveRef.current = save;
    notifyRef.current = notify;
  });

  const draft = useRef<TemplateDraft | null>(restored);
  const version = useRef(0);
  const failures = useRef(0);
  const inFlight = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [status, setStatus] = useState<SaveStatus>(restored ? 'unsaved' : 'idle');

  const run = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    const current = draft.current;
    if (!current) return true;
    const savedVersion = version.current;
    inFlight.current += 1;
    setStatus('saving');
    try {
      await saveRef.current(current);
    } catch (error) {
      failures.current += 1;
      const delay = retryDelay(failures.current);
      notifyRef.current(
        'error',
        `Template not saved: ${errorMessage(error, 'the server did not accept it')}. Your changes are kept and saved again in ${Math.round(delay / 1000)} seconds.`,
      );
      setStatus('failed');
      // The retry calls this same callback; it exists by the time the timer fires.
      // eslint-disable-next-line react-hooks/immutability
      timer.current = setTimeout(() => void run(), delay);
      return false;
    } finally {
      inFlight.current -= 1;
    }
    failures.current = 0;
    if (version.current === savedVersion) {
      draft.current = null;
      keptDraft.drop(templateId);
      if (inFlight.current === 0) setStatus('saved');
    } else {
      // A newer change came in while saving; its debounce is already running.
      setStatus('unsaved');
    }
    return true;
  }, [templateId]);

  /** The editor changed: keep its draft and (re)start the debounce. */
  const change = useCallback(
    (next: TemplateDraft) => {
      draft.current = next;
      version.current += 1;
      setStatus('unsaved');
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void run(), AUTOSAVE_DEBOUNCE_MS);
    },
    [run],
  );

  /** Saves `next` at once (Save and Exit); resolves false when the save failed. */
  const saveNow = useCallback(
    (next: TemplateDraft) => {
      draft.current = next;
      version.current += 1;
      return run();
    },
    [run],
  );

  useEffect(() => {
    if (restored) timer.current = setTimeout(() => void run(), AUTOSAVE_DEBOUNCE_MS);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!draft.current) return;
      keptDraft.keep(templateId, draft.current);
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      clearTimeout(timer.current);
      // Leaving inside the app: the pending draft is saved on the way out.
      const pending = draft.current;
      if (!pending) return;
      saveRef.current(pending).then(
        () => keptDraft.drop(templateId),
        (error: unknown) => {
          keptDraft.keep(templateId, pending);
          notifyRef.current(
            'error',
            `Template not saved: ${errorMessage(error, 'the server did not accept it')}. Your changes are kept and come back when you open the template again.`,
          );
        },
      );
    };
    // Mount and unmount only: `restored` is the first render's and `run` changes only with the template.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [templateId]);

  return { status, change, saveNow };
}
