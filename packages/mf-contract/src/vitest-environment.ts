/**
 * The frontends' component-test environment: Vitest's jsdom, keeping Node's own AbortController,
 * AbortSignal, FormData, Blob and File. jsdom brings its own, which Node 24's fetch and Request
 * (undici) reject or stringify: every API call made with TanStack Query's abort signal failed, and a
 * multipart upload went out as the text "[object FormData]". A browser has one implementation of
 * all of them; so does this. Use it as `environment` (a path) in a frontend's vitest.config.ts.
 */
import { builtinEnvironments, type Environment } from 'vitest/environments';

export default {
  name: 'jsdom-node-fetch',
  transformMode: 'web',
  async setup(global, options) {
    const { AbortController, AbortSignal, FormData, Blob, File } = global as typeof globalThis;
    const jsdom = await builtinEnvironments.jsdom.setup(global, options);
    const JsdomFormData = (global as typeof globalThis).FormData;
    /**
     * Node's FormData, which also takes a form as a browser's does: React 19 reads a submitted form
     * with `new FormData(form, submitter)` (for useFormStatus). jsdom's reads the form; its text
     * fields are copied (no component here reads a submitted form's files).
     */
    class FormDataOfForm extends FormData {
      constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
        super();
        if (form === undefined) return;
        for (const [name, value] of new JsdomFormData(form, submitter)) if (typeof value === 'string') this.append(name, value);
      }
    }
    Object.assign(global, { AbortController, AbortSignal, FormData: FormDataOfForm, Blob, File });
    return jsdom;
  },
} satisfies Environment;
