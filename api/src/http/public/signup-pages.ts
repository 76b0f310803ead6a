/**
 * The sign-up pages the API serves (issue 25): a form's hosted page, the answers to a submission and the
 * confirmation link's pages. Server-rendered on the shared shell (page.ts), in the organisation's name and
 * colour, readable at 390 px and in a dark theme (page.css follows the system's colour scheme).
 *
 * Their Content-Security-Policy is strict: no inline script or style at all. The stylesheet, the
 * proof-of-work widget (the `altcha` package's build without inline workers or styles) and its worker
 * come from the API's own origin (/subscribe/static/...). A form post may only go back to the API, or,
 * for a form whose page of thanks is on the organisation's site, to that origin (Chrome applies
 * form-action to the redirect after a post).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Response } from 'express';
import type { FieldType } from '@mailroom/api-client/fields';
import { escapeHtml as escape, sendPage } from './page.js';

export const STATIC_PREFIX = '/subscribe/static';

export interface PageFrame {
  orgName: string;
  /** Origins besides the API's own that a form on the page may post to (the page of thanks). */
  formTargets?: string[];
}

export function signupPagePolicy(formTargets: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const HEAD = `<link rel="stylesheet" href="${STATIC_PREFIX}/page.css">`;

/** A page of text: a submission's answer, a link's state. */
export function sendSignupMessage(res: Response, frame: PageFrame, status: number, title: string, paragraphs: string[], extra = ''): void {
  sendPage(res, {
    status,
    title,
    head: HEAD,
    body: `${paragraphs.map((text) => `<p>${escape(text)}</p>`).join('')}${extra}<p class="org">${escape(frame.orgName)}</p>`,
    headers: { 'Content-Security-Policy': signupPagePolicy(frame.formTargets), 'Referrer-Policy': 'same-origin' },
  });
}

export interface PageField {
  key: string;
  label: string;
  type: FieldType;
  options: string[] | null;
  required: boolean;
}

export interface FormPage {
  slug: string;
  name: string;
  description: string;
  consentWording: string;
  /** Sent back as the consent box's value: the ledger records the version the person saw. */
  consentVersion: number;
  fields: PageField[];
  successOrigin: string | null;
}

function fieldHtml(field: PageField, index: number): string {
  const id = `field-${index}`;
  const name = escape(field.key);
  const required = field.required ? ' required' : '';
  const label = `<label for="${id}">${escape(field.label)}${field.required ? '' : ' <span class="optional">(optional)</span>'}</label>`;
  let control: string;
  switch (field.type) {
    case 'CHOICE':
    case 'YES_NO': {
      const options = field.type === 'YES_NO' ? ['Yes', 'No'] : (field.options ?? []);
      control =
        `<select id="${id}" name="${name}"${required}><option value=""></option>` +
        options.map((option) => `<option>${escape(option)}</option>`).join('') +
        `</select>`;
      break;
    }
    case 'DATE':
      control = `<input id="${id}" name="${name}" type="date"${required}>`;
      break;
    case 'NUMBER':
      control = `<input id="${id}" name="${name}" type="text" inputmode="decimal"${required}>`;
      break;
    default:
      control = `<input id="${id}" name="${name}" type="text" maxlength="4000"${required}>`;
  }
  return `<div class="field">${label}${control}</div>`;
}

export function sendFormPage(res: Response, frame: PageFrame, form: FormPage): void {
  const action = `/subscribe/${encodeURIComponent(form.slug)}`;
  const body =
    (form.description ? `<p class="description">${escape(form.description)}</p>` : '') +
    `<form method="post" action="${action}">` +
    `<div class="field"><label for="field-email">Email address</label>` +
    `<input id="field-email" name="email" type="email" autocomplete="email" maxlength="254" required></div>` +
    form.fields.map(fieldHtml).join('') +
    // The honeypot: not shown, not announced; a robot filling every field fills it.
    `<div class="hp"><label for="field-website">Leave this empty</label><input id="field-website" name="website" type="text" tabindex="-1" autocomplete="off"></div>` +
    `<div class="consent"><input id="field-consent" name="consent" type="checkbox" value="${form.consentVersion}" required>` +
    `<label for="field-consent">${escape(form.consentWording)}</label></div>` +
    `<altcha-widget challenge="${action}/challenge" name="altcha" auto="onsubmit"></altcha-widget>` +
    `<noscript><p class="note">Your browser runs no JavaScript: the form still works, within a few sign-ups an hour from your network.</p></noscript>` +
    `<button type="submit">Subscribe</button></form>` +
    `<p class="org">${escape(frame.orgName)}</p>`;
  sendPage(res, {
    status: 200,
    title: form.name,
    head: `${HEAD}<link rel="stylesheet" href="${STATIC_PREFIX}/altcha.css">`,
    body,
    end: `<script type="module" src="${STATIC_PREFIX}/signup.js"></script>`,
    headers: {
      'Content-Security-Policy': signupPagePolicy(form.successOrigin ? [form.successOrigin] : []),
      'Referrer-Policy': 'same-origin',
    },
  });
}

/** The confirmation link's page: a button that posts (a GET confirms nothing: link scanners follow GETs). */
export function sendConfirmPage(res: Response, frame: PageFrame, formName: string): void {
  sendSignupMessage(
    res,
    frame,
    200,
    'Confirm your subscription',
    [formName ? `Confirm that you want to receive "${formName}" from ${frame.orgName}.` : `Confirm your subscription to ${frame.orgName}.`],
    `<form method="post"><input type="hidden" name="confirm" value="yes"><button type="submit">Confirm</button></form>`,
  );
}

/** The page's stylesheet, in the organisation's colour; light and dark as the system prefers. */
function pageCss(color: string): string {
  return `:root{color-scheme:light dark;--accent:${color};--text:#1b1b1b;--muted:#4a4a4a;--bg:#ffffff;--field:#ffffff;--border:#767676}
@media (prefers-color-scheme:dark){:root{--text:#f0f0f0;--muted:#c8c8c8;--bg:#1b1b1b;--field:#262626;--border:#9a9a9a}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font-family:system-ui,sans-serif;line-height:1.5}
main{max-width:34rem;margin:0 auto;padding:2rem 1rem 3rem;border-top:6px solid var(--accent)}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
.description,.org,.note,.optional{color:var(--muted)}
.org{font-size:.9rem;margin-top:2rem}
.field{display:flex;flex-direction:column;gap:.25rem;margin:0 0 1rem}
.field input,.field select{font:inherit;padding:.5rem;border:1px solid var(--border);border-radius:4px;background:var(--field);color:var(--text);width:100%}
.consent{display:flex;gap:.5rem;align-items:flex-start;margin:1rem 0}
.consent input{margin-top:.35rem;width:1.1rem;height:1.1rem;flex:none}
.hp{display:none}
altcha-widget{display:block;margin:1rem 0}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:4px;background:var(--accent);color:#ffffff;cursor:pointer}
button:focus-visible,input:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
a{color:inherit}
`;
}

/** The page's script: the widget, and its SHA-256 worker registered from this origin (the build registers none). */
const SIGNUP_JS = `import './altcha.js';
globalThis.$altcha.algorithms.set('SHA-256', () => new Worker('${STATIC_PREFIX}/sha-worker.js'));
`;

/**
 * The script an organisation's own site loads with the pasted form (the forms screen's snippet with the
 * check): the widget, and its SHA-256 worker. A page may not start a worker from another origin, so a worker
 * of the page's own (a blob: URL) imports this origin's worker script; the site's policy, if it has one, must
 * allow scripts from the API's origin and workers from blob:.
 */
const EMBED_JS = `import './altcha.js';
const worker = new URL('sha-worker.js', import.meta.url).href;
const source = URL.createObjectURL(new Blob(['importScripts(' + JSON.stringify(worker) + ');'], { type: 'text/javascript' }));
globalThis.$altcha.algorithms.set('SHA-256', () => new Worker(source));
`;

export interface StaticFile {
  type: string;
  body: string | Buffer;
}

/** The files under /subscribe/static, read once. */
export function signupStaticFiles(color: string): Map<string, StaticFile> {
  const require = createRequire(import.meta.url);
  const external = dirname(require.resolve('altcha/altcha.css'));
  const read = (path: string) => readFileSync(path);
  return new Map<string, StaticFile>([
    ['page.css', { type: 'text/css; charset=utf-8', body: pageCss(color) }],
    ['altcha.css', { type: 'text/css; charset=utf-8', body: read(join(external, 'altcha.css')) }],
    ['altcha.js', { type: 'text/javascript; charset=utf-8', body: read(join(external, 'altcha.min.js')) }],
    ['sha-worker.js', { type: 'text/javascript; charset=utf-8', body: read(join(external, '..', 'workers', 'sha.js')) }],
    ['signup.js', { type: 'text/javascript; charset=utf-8', body: SIGNUP_JS }],
    ['embed.js', { type: 'text/javascript; charset=utf-8', body: EMBED_JS }],
  ]);
}
