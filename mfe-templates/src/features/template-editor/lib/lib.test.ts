import { afterEach, describe, expect, it } from 'vitest';
import { retryDelay } from '../hooks/useAutosave';
import { loadEditorScript } from './editorScript';
import { MERGE_TAGS } from './mergeTags';
import { htmlToPlainText } from './plainText';

describe('htmlToPlainText', () => {
  it('keeps the visible text, a line per block, and follows links with their address', () => {
    const html = `<!doctype html><html><head><title>Hidden</title><style>p { color: red }</style></head>
      <body><table><tr><td><h1>Spring   appeal</h1><p>Dear {{fullName}},<br>thank you.</p>
      <p>Read <a href="https://example.org/report">the report</a> or <a href="#top">go up</a>.</p>
      <script>alert(1)</script></td></tr></table></body></html>`;
    expect(htmlToPlainText(html)).toBe(
      ['Spring appeal', 'Dear {{fullName}},', 'thank you.', 'Read the report (https://example.org/report) or go up.'].join('\n'),
    );
  });

  it('gives nothing for an empty email', () => {
    expect(htmlToPlainText('')).toBe('');
  });
});

describe('MERGE_TAGS', () => {
  it('offers every field of the spec in double braces, names kept apart by case', () => {
    expect(MERGE_TAGS.userName).toEqual({ name: 'userName', value: '{{userName}}' });
    expect(MERGE_TAGS.username).toEqual({ name: 'username', value: '{{username}}' });
    expect(Object.keys(MERGE_TAGS)).toHaveLength(11);
  });
});

describe('retryDelay', () => {
  it('starts at the debounce and doubles up to five minutes', () => {
    expect([1, 2, 3, 4, 5, 9].map(retryDelay)).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
  });
});

describe('loadEditorScript', () => {
  const URL_ = 'https://editor.test/embed.js';
  const scripts = () => [...document.querySelectorAll('script')].filter((script) => script.src === URL_);
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'unlayer');
    for (const script of scripts()) script.remove();
  });

  it('adds the script once and resolves when it defines the editor', async () => {
    const first = loadEditorScript(URL_);
    const second = loadEditorScript(URL_);
    expect(scripts()).toHaveLength(1);
    Object.assign(globalThis, { unlayer: {} });
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    await expect(loadEditorScript(URL_)).resolves.toBeUndefined();
  });

  it('rejects when the script fails, and asks the network again on the next call', async () => {
    const failed = loadEditorScript(URL_);
    const element = scripts()[0]!;
    element.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow('could not be loaded');
    const retry = loadEditorScript(URL_);
    expect(scripts()).toHaveLength(1);
    expect(scripts()[0]).not.toBe(element);
    Object.assign(globalThis, { unlayer: {} });
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(retry).resolves.toBeUndefined();
  });

  it('rejects a script that loads but defines no editor', async () => {
    const loading = loadEditorScript(URL_);
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(loading).rejects.toThrow('did not start the editor');
  });
});
