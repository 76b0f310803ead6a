import type { SignupForm } from '@mailroom/api-client';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SnippetOptions {
  /**
   * With the anti-robot check: the altcha widget, loaded from the API's `/subscribe/static`, solves the form's
   * proof-of-work in the visitor's browser, so the site's posts are not held to the few an hour per network
   * taken without it (docs/decisions/sign-up.md). Without: a plain form that needs no JavaScript.
   */
  check: boolean;
}

/**
 * The HTML an organisation pastes into its site: a form posting to the hosted page's address, with its fields,
 * the honeypot and the consent; with the check, the widget's stylesheet and script from the API and the widget
 * in the form. `labels` names the fields (their keys otherwise).
 */
export function embedSnippet(
  form: Pick<SignupForm, 'hostedUrl' | 'name' | 'fields' | 'consentWording' | 'consentVersion'>,
  labels: Record<string, string> = {},
  { check }: SnippetOptions = { check: false },
): string {
  const staticUrl = new URL('/subscribe/static/', form.hostedUrl).href;
  const lines = [
    ...(check
      ? [
          `<link rel="stylesheet" href="${escape(staticUrl)}altcha.css">`,
          `<script type="module" src="${escape(staticUrl)}embed.js"></script>`,
        ]
      : []),
    `<form method="post" action="${escape(form.hostedUrl)}">`,
    `  <p><label>Email address <input type="email" name="email" required></label></p>`,
    ...form.fields.map(
      (field) =>
        `  <p><label>${escape(labels[field.key] ?? field.key)} <input type="text" name="${escape(field.key)}"${field.required ? ' required' : ''}></label></p>`,
    ),
    `  <p style="display:none"><label>Leave this empty <input type="text" name="website" tabindex="-1" autocomplete="off"></label></p>`,
    // The box's value is the wording's version: the ledger records the words this pasted copy shows, even
    // after the form's wording changes.
    `  <p><label><input type="checkbox" name="consent" value="${form.consentVersion}" required> ${escape(form.consentWording)}</label></p>`,
    ...(check ? [`  <altcha-widget challenge="${escape(form.hostedUrl)}/challenge" name="altcha" auto="onsubmit"></altcha-widget>`] : []),
    `  <p><button type="submit">Subscribe</button></p>`,
    `</form>`,
  ];
  return lines.join('\n');
}
