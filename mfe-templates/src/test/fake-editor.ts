/**
 * A stand-in for the email editor's script in component tests: the `unlayer` global with the part
 * of the editor API the product uses (createEditor, loadDesign, exportHtml, addEventListener,
 * destroy). react-email-editor and the product's own loader run unchanged against it; the test
 * decides when the script arrives or fails, and plays the member changing the design.
 */
import { DEFAULT_EMAIL_EDITOR_SCRIPT_URL } from '@mailroom/mf-contract';

type Listener = (data?: unknown) => void;

export class FakeEditor {
  design: Record<string, unknown> | null = null;
  readonly loadedDesigns: Record<string, unknown>[] = [];
  destroyed = false;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly options: Record<string, unknown>) {}

  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    // The editor's frame is up as soon as someone listens for it.
    if (type === 'editor:ready') queueMicrotask(() => listener());
  }

  loadDesign(design: Record<string, unknown>) {
    this.design = design;
    this.loadedDesigns.push(design);
  }

  exportHtml(callback: (data: { design: Record<string, unknown> | null; html: string }) => void) {
    const design = this.design;
    queueMicrotask(() => callback({ design, html: `<html><body><p>${String(design?.text ?? '')}</p></body></html>` }));
  }

  destroy() {
    this.destroyed = true;
  }

  /** The member edits the design. */
  change(design: Record<string, unknown>) {
    this.design = design;
    for (const listener of this.listeners.get('design:updated') ?? []) listener({ type: 'content:modified' });
  }
}

export function installFakeEditor(scriptUrl = DEFAULT_EMAIL_EDITOR_SCRIPT_URL) {
  const editors: FakeEditor[] = [];
  const unlayer = {
    createEditor(options: Record<string, unknown>) {
      const editor = new FakeEditor(options);
      editors.push(editor);
      return editor;
    },
  };
  const script = () => [...document.querySelectorAll('script')].find((element) => element.src === scriptUrl);

  return {
    editors,
    /** The newest editor (the page's). */
    get editor(): FakeEditor {
      const editor = editors.at(-1);
      if (!editor) throw new Error('No editor was created');
      return editor;
    },
    /** Whether the page asked for the script (jsdom never fetches it: the test answers). */
    requested: () => script() !== undefined,
    /** The script arrives and defines the editor. */
    load() {
      Object.assign(globalThis, { unlayer });
      script()?.dispatchEvent(new Event('load'));
    },
    /** The script cannot be fetched. */
    fail() {
      script()?.dispatchEvent(new Event('error'));
    },
    uninstall() {
      Reflect.deleteProperty(globalThis, 'unlayer');
      for (const element of document.querySelectorAll('script')) element.remove();
    },
  };
}

export type FakeEditorScript = ReturnType<typeof installFakeEditor>;
