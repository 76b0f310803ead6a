/**
 * Sign-up forms (issue 25): what a member sets for a form, checked, and the consent wording's versions.
 * The rules: a form asks for fields of its own audience only; its page of thanks and the sites that may
 * post to it are origins the member named; the confirmation mail goes from an authorized sender; and
 * wording that someone has agreed to is never rewritten (an edit of a used version adds the next one).
 */
import { randomBytes } from 'node:crypto';
import type { SignupForm, SignupFormInput } from '@mailroom/api-client';
import type { Database } from '../../db/database.js';
import { audienceObject, recordActivity, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { formsRepository, type FormRecord, type FormValues } from './forms-repository.js';

export const FORM_NOT_FOUND = 'Sign-up form not found';
export const AUDIENCE_NOT_FOUND = 'Audience not found';
export const CONFIRM_URL_TAG = '{{confirmUrl}}';
export const DEFAULT_MAIL_SUBJECT = 'Please confirm your subscription';
export const DEFAULT_SUCCESS_CONFIRM = 'Thank you. Check your inbox: we sent you a link to confirm your subscription.';
export const DEFAULT_SUCCESS_DIRECT = 'Thank you for subscribing.';
export const defaultMailText = (orgName: string, formName: string) =>
  `Hello,\n\nsomeone, hopefully you, asked to receive "${formName}" from ${orgName} at this address.\n\n` +
  `Confirm here: ${CONFIRM_URL_TAG}\n\nIf it was not you, ignore this mail: nothing will be sent to you.`;

/** Letters of a slug's random part: lower-case base32 without look-alikes' trouble (a-z, 2-7). */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const SLUG_RANDOM_CHARS = 16;

/** A readable prefix from the form's name and 80 random bits: no form can be found by counting. */
export function newSlug(name: string): string {
  const prefix =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30)
      .replace(/-+$/, '') || 'form';
  const bytes = randomBytes(SLUG_RANDOM_CHARS);
  let random = '';
  for (const byte of bytes) random += BASE32[byte & 31];
  return `${prefix}-${random}`;
}

const LINE_BREAK = /[\r\n]/;
const NUL = '\u0000';

function text(field: string, value: string | undefined, { oneLine = false, max }: { oneLine?: boolean; max: number }): string {
  const trimmed = (value ?? '').trim();
  if (trimmed.includes(NUL)) throw new DomainError('invalid', `The ${field} must not contain NUL characters.`);
  if (oneLine && LINE_BREAK.test(trimmed)) throw new DomainError('invalid', `The ${field} must be on one line.`);
  if (trimmed.length > max) throw new DomainError('invalid', `The ${field} must be at most ${max} characters.`);
  return trimmed;
}

/** `https://site.example` (no path, no trailing slash): what a browser sends as Origin. */
export function originError(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${origin} is not a web origin (https://...).`;
    if (url.origin !== origin) return `${origin} is not an origin: write it as ${url.origin}, without a path or a trailing slash.`;
    return null;
  } catch {
    return `${origin} is not an origin (such as https://www.example.org).`;
  }
}

export interface FormServiceDeps {
  db: Database;
  publicUrl: string;
  orgName: string;
  authorizedSenders: readonly string[];
  /** Called after a form changed or went. */
  onChange?: () => void;
}

export function createFormService({ db, publicUrl, orgName, authorizedSenders, onChange = () => {} }: FormServiceDeps) {
  const repo = formsRepository(db);
  const senders = new Set(authorizedSenders.map((address) => address.toLowerCase()));

  const toApi = (form: FormRecord): SignupForm => ({
    id: form.id,
    audienceId: form.audienceId,
    slug: form.slug,
    name: form.name,
    description: form.description,
    fields: form.fields,
    consentWording: form.consentWording,
    consentVersion: form.consentVersion,
    confirmationRequired: form.confirmationRequired,
    successMessage: form.successMessage,
    successUrl: form.successUrl,
    allowedOrigins: form.allowedOrigins,
    mailSubject: form.mailSubject,
    mailText: form.mailText,
    fromName: form.fromName,
    fromEmail: form.fromEmail,
    hostedUrl: `${publicUrl}/subscribe/${form.slug}`,
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  });

  /** The input checked against the audience's fields and the organisation's settings, with defaults filled. */
  async function values(audienceId: number, input: SignupFormInput): Promise<FormValues> {
    const name = text('form name', input.name, { oneLine: true, max: 200 });
    if (!name) throw new DomainError('invalid', 'The form needs a name.');
    const consentWording = text('consent wording', input.consentWording, { max: 4000 });
    if (!consentWording) throw new DomainError('invalid', 'The form needs the consent wording the person agrees to.');

    const known = new Map((await repo.audienceFields(audienceId)).map((field) => [field.key, field]));
    const seen = new Set<string>();
    const fields = (input.fields ?? []).map(({ key, required }) => {
      if (!known.has(key)) throw new DomainError('invalid', `The audience has no field "${key}".`);
      if (seen.has(key)) throw new DomainError('invalid', `The field "${key}" is listed twice.`);
      seen.add(key);
      // A field the audience requires is required on the form too: the contact could not be stored without it.
      return { key, required: required || known.get(key)!.required };
    });
    const missing = [...known.values()].filter((field) => field.required && !seen.has(field.key));
    if (missing.length > 0)
      throw new DomainError('invalid', `The audience requires ${missing.map((f) => `"${f.label}"`).join(', ')}: the form must ask for it.`);

    const allowedOrigins = [...new Set((input.allowedOrigins ?? []).map((origin) => origin.trim()).filter(Boolean))];
    for (const origin of allowedOrigins) {
      const error = originError(origin);
      if (error) throw new DomainError('invalid', error);
    }
    const successUrl = text('page of thanks', input.successUrl ?? '', { oneLine: true, max: 2000 }) || null;
    if (successUrl) {
      let origin: string;
      try {
        origin = new URL(successUrl).origin;
      } catch {
        throw new DomainError('invalid', 'The page of thanks must be a full address (https://...).');
      }
      if (!allowedOrigins.includes(origin))
        throw new DomainError('invalid', `The page of thanks must be on one of the allowed origins (add ${origin}).`);
    }
    const confirmationRequired = input.confirmationRequired ?? true;
    const fromEmail = text('sender email', input.fromEmail, { oneLine: true, max: 320 }) || authorizedSenders[0]!;
    if (!senders.has(fromEmail.toLowerCase()))
      throw new DomainError('invalid', 'The sender email must be one of the authorized addresses.');
    let mailText = text('confirmation mail text', input.mailText, { max: 5000 }) || defaultMailText(orgName, name);
    // The mail is worthless without its link.
    if (!mailText.includes(CONFIRM_URL_TAG)) mailText += `\n\n${CONFIRM_URL_TAG}`;
    return {
      name,
      description: text('description', input.description, { max: 2000 }),
      fields,
      consentWording,
      confirmationRequired,
      successMessage:
        text('message of thanks', input.successMessage, { max: 1000 }) ||
        (confirmationRequired ? DEFAULT_SUCCESS_CONFIRM : DEFAULT_SUCCESS_DIRECT),
      successUrl,
      allowedOrigins,
      mailSubject: text('mail subject', input.mailSubject, { oneLine: true, max: 200 }) || DEFAULT_MAIL_SUBJECT,
      mailText,
      fromName: text('sender name', input.fromName, { oneLine: true, max: 200 }) || orgName,
      fromEmail,
    };
  }

  async function formOrThrow(id: number): Promise<FormRecord> {
    const form = await repo.byId(id);
    if (!form) throw new DomainError('not-found', FORM_NOT_FOUND);
    return form;
  }

  return {
    async list(audienceId: number): Promise<SignupForm[]> {
      if (!(await repo.audienceExists(audienceId))) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
      return (await repo.list(audienceId)).map(toApi);
    },

    async get(id: number): Promise<SignupForm> {
      return toApi(await formOrThrow(id));
    },

    async create(audienceId: number, input: SignupFormInput, actor: Actor): Promise<SignupForm> {
      if (!(await repo.audienceExists(audienceId))) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
      const checked = await values(audienceId, input);
      const id = await db.transaction(async (tx) => {
        const formId = await repo.create(tx, audienceId, newSlug(checked.name), checked, actor.email);
        await recordActivity(tx, {
          actor,
          kind: 'form-create',
          object: await audienceObject(tx, audienceId),
          details: { formId, name: checked.name },
        });
        return formId;
      });
      return toApi(await formOrThrow(id));
    },

    async update(id: number, input: SignupFormInput, actor: Actor): Promise<SignupForm> {
      const existing = await formOrThrow(id);
      const checked = await values(existing.audienceId, input);
      await db.transaction(async (tx) => {
        const form = await repo.lock(tx, id);
        if (!form) throw new DomainError('not-found', FORM_NOT_FOUND);
        let version = form.consentVersion;
        if (checked.consentWording !== form.consentWording) {
          // Someone agreed to the current wording: it stays as it was, and the new one is the next version.
          if (await repo.versionUsed(tx, id, version)) version += 1;
          await repo.putWording(tx, id, version, checked.consentWording);
        }
        await repo.update(tx, id, checked, version);
        // What the person sees changed: the public name, or the wording they agree to (a new version or not).
        const changed = [
          ...(checked.name !== form.name ? ['name'] : []),
          ...(checked.consentWording !== form.consentWording ? ['consentWording'] : []),
        ];
        await recordActivity(tx, {
          actor,
          kind: 'form-change',
          object: await audienceObject(tx, form.audienceId),
          details: {
            formId: id,
            name: checked.name,
            changed,
            ...(checked.name !== form.name ? { from: form.name } : {}),
            ...(version !== form.consentVersion ? { consentVersion: version } : {}),
          },
        });
      });
      onChange();
      return toApi(await formOrThrow(id));
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const form = await repo.lock(tx, id);
        if (!form) throw new DomainError('not-found', FORM_NOT_FOUND);
        await repo.remove(id, tx);
        await recordActivity(tx, {
          actor,
          kind: 'form-delete',
          object: await audienceObject(tx, form.audienceId),
          details: { formId: id, name: form.name },
        });
      });
      onChange();
    },
  };
}

export type FormService = ReturnType<typeof createFormService>;
