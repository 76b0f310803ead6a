/**
 * A sign-up's body, read for its form: every check that needs no database, each refusal a DomainError
 * whose message the page shows. What is refused: a field the form does not ask for, a NUL byte or a line
 * break anywhere (a name that would write mail headers), a value over its length, an address that cannot
 * be mailed, a field value its type refuses (parseFieldValue, as an import reads it), no consent (the box's
 * value is 'yes', or the number of the wording's version the page showed).
 */
import { parseFieldValue, type FieldValue } from '@mailroom/api-client/fields';
import { INVALID_EMAIL, isValidEmail, MISSING_EMAIL, unsendableReason } from '../contacts/email.js';
import { DomainError } from '../errors.js';
import type { AudienceFieldRule, FormField } from './forms-repository.js';

/** The names a submission may carry besides the form's fields. */
export const EMAIL_FIELD = 'email';
export const CHALLENGE_FIELD = 'altcha';
export const CONSENT_FIELD = 'consent';
/** The honeypot: hidden from people (and from screen readers), filled in by form-filling robots. */
export const HONEYPOT_FIELD = 'website';
/** The longest value of any field: an address is shorter, a TEXT field's own limit (4,000) is checked by its rule. */
export const MAX_VALUE_LENGTH = 4000;

export const NO_CONSENT = 'Please tick the box to agree before subscribing.';

export interface Submission {
  email: string;
  data: Record<string, FieldValue>;
  /** The proof-of-work payload, when sent. */
  solution: string | undefined;
  /** True when the honeypot was filled: a robot. */
  robot: boolean;
  /**
   * The version of the consent wording the person saw, when the form says it (the hosted page and the pasted
   * HTML send it as the box's value): a page opened before the wording changed still records the words shown.
   */
  consentVersion: number | undefined;
}

export interface FormFieldRule extends FormField {
  rule: AudienceFieldRule;
}

const LINE_BREAK = /[\r\n\u2028\u2029]/;

const refuse = (message: string): never => {
  throw new DomainError('invalid', message);
};

export function readSubmission(body: unknown, fields: readonly FormFieldRule[]): Submission {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse('The form was sent without its fields.');
  const values = body as Record<string, unknown>;
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const labelOf = (name: string) => byKey.get(name)?.rule.label ?? name;

  for (const [name, value] of Object.entries(values)) {
    const known = name === EMAIL_FIELD || name === CHALLENGE_FIELD || name === CONSENT_FIELD || name === HONEYPOT_FIELD || byKey.has(name);
    if (!known) refuse(`This form has no field "${name.slice(0, 60)}".`);
    if (typeof value !== 'string') refuse(`${labelOf(name)} must be text.`);
    const text = value as string;
    if (text.includes('\u0000')) refuse(`${labelOf(name)} holds a NUL character.`);
    if (text.length > MAX_VALUE_LENGTH)
      refuse(`${labelOf(name)} is too long (at most ${MAX_VALUE_LENGTH.toLocaleString('en')} characters).`);
    if (LINE_BREAK.test(text)) refuse(`${labelOf(name)} must be on one line.`);
  }

  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '');
  const email = str(EMAIL_FIELD).trim();
  if (!email) refuse(MISSING_EMAIL);
  if (!isValidEmail(email)) refuse(INVALID_EMAIL);
  const unsendable = unsendableReason(email);
  if (unsendable) refuse(unsendable);

  const data: Record<string, FieldValue> = {};
  for (const field of fields) {
    const parsed = parseFieldValue({ ...field.rule, required: field.required }, str(field.key));
    if (!parsed.ok) refuse(parsed.error);
    else if (parsed.value !== null) data[field.key] = parsed.value;
  }

  const consent = str(CONSENT_FIELD).trim().toLowerCase();
  const version = /^[1-9][0-9]{0,8}$/.test(consent) ? Number(consent) : undefined;
  if (version === undefined && !['yes', 'on', 'true'].includes(consent)) refuse(NO_CONSENT);
  const solution = str(CHALLENGE_FIELD).trim() || undefined;
  return { email, data, solution, robot: str(HONEYPOT_FIELD) !== '', consentVersion: version };
}
