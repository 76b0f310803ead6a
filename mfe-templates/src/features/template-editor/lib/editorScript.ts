/** The global the editor's script defines (react-email-editor reads the same one). */
declare global {
  interface Window {
    unlayer?: unknown;
  }
}

function findScript(url: string): HTMLScriptElement | null {
  const absolute = new URL(url, document.baseURI).href;
  return [...document.querySelectorAll('script')].find((script) => script.src === absolute) ?? null;
}

/**
 * Loads the email editor's script once. react-email-editor loads it too, but waits for ever when it
 * fails; loading it first lets the page say so. The wrapper then finds the loaded script and goes on.
 * A failed script element is replaced, so a retry asks the network again.
 */
export function loadEditorScript(url: string): Promise<void> {
  if (window.unlayer !== undefined) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let script = findScript(url);
    // A settled script that left no editor behind failed: ask the network again.
    if (script?.dataset.settled) {
      script.remove();
      script = null;
    }
    if (!script) {
      script = document.createElement('script');
      script.src = url;
      script.async = true;
      document.head.appendChild(script);
    }
    const element = script;
    const settle = (ok: boolean) => {
      element.removeEventListener('load', onLoad);
      element.removeEventListener('error', onError);
      element.dataset.settled = 'true';
      if (ok && window.unlayer !== undefined) return resolve();
      reject(new Error(ok ? 'The email editor script loaded but did not start the editor' : 'The email editor script could not be loaded'));
    };
    const onLoad = () => settle(true);
    const onError = () => settle(false);
    element.addEventListener('load', onLoad);
    element.addEventListener('error', onError);
  });
}
