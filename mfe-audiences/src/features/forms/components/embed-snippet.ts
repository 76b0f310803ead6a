import type { SignupForm } from '@mailroom/api-client';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The HTML an organisation pastes into its site: a plain form posting to the hosted page's address. It
 * carries no script (a worker cannot be loaded from another origin), so its posts are taken within the
 * limit of posts without the proof-of-work per network (docs/decisions/sign-up.md). `labels` names the
 * fields (their keys otherwise).
 */
export function embedSnippet(
  form: Pick<SignupForm, 'hostedUrl' | 'name' | 'fields' | 'consentWording'>,
  labels: Record<string, string> = {},
): string {
  const lines = [
    `<form method="post" action="${escape(form.hostedUrl)}">`,
    `  <p><label>Email address <input type="email" name="email" required></label></p>`,
    ...form.fields.map(
      (field) =>
        `  <p><label>${escape(labels[field.key] ?? field.key)} <input type="text" name="${escape(field.key)}"${field.required ? ' required' : ''}></label></p>`,
    ),
    `  <p style="display:none"><label>Leave this empty <input type="text" name="website" tabindex="-1" autocomplete="off"></label></p>`,
    `  <p><label><input type="checkbox" name="consent" value="yes" required> ${escape(form.consentWording)}</label></p>`,
    `  <p><button type="submit">Subscribe</button></p>`,
    `</form>`,
  ];
  return lines.join('\n');
}
