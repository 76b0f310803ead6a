/**
 * The preference centre's pages (issue 25): the person's audiences with a switch each and their editable
 * fields, the answer to a save, and a refusal. On the public pages' shell (page.ts) with the sign-up pages'
 * stylesheet and strict policy (no script, no inline style; the form posts back to the API only), so they look
 * alike, follow the organisation's colour and the system's dark theme, and work without JavaScript at 390 px.
 */
import type { Response } from 'express';
import type { FieldValue } from '@mailroom/api-client/fields';
import {
  audienceInput,
  fieldInput,
  type EditableField,
  type PersonAudience,
  type SavedPreferences,
} from '../../services/preferences/preference-service.js';
import { escapeHtml as escape, sendPage } from './page.js';
import { signupPagePolicy, STATIC_PREFIX } from './signup-pages.js';

export interface PreferencePageFrame {
  orgName: string;
}

const HEADERS = { 'Content-Security-Policy': signupPagePolicy(), 'Referrer-Policy': 'same-origin' };

function send(res: Response, frame: PreferencePageFrame, status: number, title: string, body: string): void {
  sendPage(res, {
    status,
    title,
    head: `<link rel="stylesheet" href="${STATIC_PREFIX}/page.css">`,
    body: `${body}<p class="org">${escape(frame.orgName)}</p>`,
    headers: HEADERS,
  });
}

export function sendPreferencesMessage(
  res: Response,
  frame: PreferencePageFrame,
  status: number,
  title: string,
  paragraphs: string[],
  extra = '',
) {
  send(res, frame, status, title, `${paragraphs.map((text) => `<p>${escape(text)}</p>`).join('')}${extra}`);
}

/** A stored value as the person would write it back. */
function written(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

function fieldHtml(audienceId: number, field: EditableField, value: string): string {
  const name = escape(fieldInput(audienceId, field.key));
  const id = name;
  const required = field.required ? ' required' : '';
  const label = `<label for="${id}">${escape(field.label)}${field.required ? '' : ' <span class="optional">(optional)</span>'}</label>`;
  let control: string;
  if (field.type === 'CHOICE' || field.type === 'YES_NO') {
    const options = field.type === 'YES_NO' ? ['Yes', 'No'] : (field.options ?? []);
    control =
      `<select id="${id}" name="${name}"${required}><option value=""></option>` +
      options
        .map((option) => `<option${option.toLowerCase() === value.toLowerCase() ? ' selected' : ''}>${escape(option)}</option>`)
        .join('') +
      `</select>`;
  } else {
    const type = field.type === 'DATE' ? 'date' : 'text';
    const extra = field.type === 'NUMBER' ? ' inputmode="decimal"' : field.type === 'TEXT' ? ' maxlength="4000"' : '';
    control = `<input id="${id}" name="${name}" type="${type}" value="${escape(value)}"${extra}${required}>`;
  }
  return `<div class="field">${label}${control}</div>`;
}

export interface PreferencesForm {
  form: string;
  unsubscribedEverywhere: boolean;
  audiences: PersonAudience[];
  /** Shown above the form: why nothing was saved. */
  errors?: string[];
  /** The values posted, shown again after a refusal. */
  posted?: Record<string, string>;
}

export function sendPreferencesPage(res: Response, frame: PreferencePageFrame, page: PreferencesForm, status = 200): void {
  const org = escape(frame.orgName);
  const hidden = `<input type="hidden" name="form" value="${escape(page.form)}">`;
  const errors = page.errors?.length
    ? `<div role="alert"><p>Nothing was saved:</p><ul>${page.errors.map((error) => `<li>${escape(error)}</li>`).join('')}</ul></div>`
    : '';
  const audiences = page.audiences
    .map(({ audienceId, publicName, subscribed, data, fields }) => {
      const switchName = escape(audienceInput(audienceId));
      const on = page.posted ? page.posted[audienceInput(audienceId)] === 'on' : subscribed;
      return (
        `<fieldset><legend>${escape(publicName)}</legend>` +
        `<div class="consent"><input id="${switchName}" name="${switchName}" type="checkbox" value="on"${on ? ' checked' : ''}>` +
        `<label for="${switchName}">Receive emails of ${escape(publicName)}</label></div>` +
        fields
          .map((field) => fieldHtml(audienceId, field, page.posted?.[fieldInput(audienceId, field.key)] ?? written(data[field.key])))
          .join('') +
        `</fieldset>`
      );
    })
    .join('');
  const lists = page.audiences.length
    ? `<p>Choose which of ${org}'s lists you receive, and keep your details up to date.</p>` +
      `<form method="post">${hidden}${audiences}<button type="submit" name="action" value="save">Save my preferences</button></form>`
    : `<p>This address is on none of ${org}'s lists that you can choose here.</p>`;
  const everything = page.unsubscribedEverywhere
    ? `<p class="note">You unsubscribed from every email of ${org}: lists switched on here stay silent until you sign up again through one of ${org}'s forms.</p>`
    : `<h2>Leave everything</h2><p>Stop every email of ${org} to this address.</p>` +
      `<form method="post">${hidden}<input type="hidden" name="action" value="leave"><button type="submit">Unsubscribe from everything</button></form>`;
  send(res, frame, status, 'Your preferences', errors + lists + everything);
}

/** What a save did, in words. */
export function sendSavedPage(res: Response, frame: PreferencePageFrame, token: string, saved: SavedPreferences): void {
  const lines = [
    ...saved.left.map((name) => `You will no longer receive ${name}.`),
    ...saved.joined.map((name) => `You will receive ${name} again.`),
    ...saved.fields.map(({ audience, labels }) => `Your details for ${audience} are updated: ${labels.join(', ')}.`),
  ];
  sendPreferencesMessage(
    res,
    frame,
    200,
    lines.length ? 'Your preferences are saved' : 'Nothing was changed',
    lines.length ? lines : ['Your preferences were already as you chose.'],
    `<p><a href="/preferences/${encodeURIComponent(token)}">Back to your preferences</a></p>`,
  );
}
