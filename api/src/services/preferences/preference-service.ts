/**
 * The preference centre (issue 25; docs/decisions/sign-up.md, Preference centre): what a mail's recipient sees
 * at /preferences/{token} (the unsubscribe link's token: it names a job, hence the address) and what a save
 * changes. No HTTP or SQL here.
 *
 * A save runs in one transaction with the person's contacts locked: each audience switched off or on sets or
 * clears contacts.unsubscribed_at, each changed field is written into the contacts' data, and each change is
 * appended to the consent ledger (UNSUBSCRIBED or RESUBSCRIBED per audience, PREFERENCES naming the changed
 * field keys, never their values). Leaving everything is the unsubscribe link's own service call.
 *
 * The page's form carries a signed value (`formValue`): only a form this API wrote, within a day, is taken.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { parseFieldValue, type FieldValue } from '@mailroom/api-client/fields';
import type { Database } from '../../db/database.js';
import { createTrackingTokens } from '../../mail/tracking-tokens.js';
import { appendConsent } from '../consent/repository.js';
import { preferenceRepository, type EditableField, type PersonAudience } from './repository.js';

export type { EditableField, PersonAudience };

/** How long a preference page's form may be posted after it was shown. */
export const FORM_VALID_MS = 24 * 60 * 60_000;
const MAC_LENGTH = 22;
const FORM_VALUE = new RegExp(`^([0-9a-z]{1,11})\\.([A-Za-z0-9_-]{${MAC_LENGTH}})$`);

/** The names of the page's form controls. */
export const audienceInput = (audienceId: number) => `audience-${audienceId}`;
export const fieldInput = (audienceId: number, key: string) => `field-${audienceId}-${key}`;

export type PreferencesView =
  { kind: 'invalid' } | { kind: 'ready'; unsubscribedEverywhere: boolean; audiences: PersonAudience[]; form: string };

/** What a save did, in the audiences' public names and the fields' labels. */
export interface SavedPreferences {
  left: string[];
  joined: string[];
  fields: { audience: string; labels: string[] }[];
}

export type SaveResult =
  | { kind: 'invalid' }
  /** A value that does not fit its field: nothing saved; the page is shown again with the values posted. */
  | { kind: 'errors'; errors: string[]; view: Extract<PreferencesView, { kind: 'ready' }>; posted: Record<string, string> }
  | { kind: 'saved'; saved: SavedPreferences };

/** Who saved: the ledger's evidence. */
export interface SaveRequest {
  address: string | undefined;
  userAgent: string | undefined;
}

export interface PreferenceServiceDeps {
  db: Database;
  trackingSecret: string;
}

/** A stored value and a parsed one are the same value (a missing value is null). */
const same = (a: FieldValue | null | undefined, b: FieldValue | null) => (a ?? null) === b;

export function createPreferenceService({ db, trackingSecret }: PreferenceServiceDeps) {
  const repo = preferenceRepository();
  const tokens = createTrackingTokens(trackingSecret);
  const key = createSecretKey(Buffer.from(trackingSecret, 'utf8'));
  const mac = (token: string, expiry: string) =>
    createHmac('sha256', key).update(`preferences-form:${token}:${expiry}`).digest('base64url').slice(0, MAC_LENGTH);

  const formValue = (token: string, now = Date.now()): string => {
    const expiry = Math.floor((now + FORM_VALID_MS) / 1000).toString(36);
    return `${expiry}.${mac(token, expiry)}`;
  };

  const view = async (token: string): Promise<PreferencesView> => {
    const read = tokens.readUnsubscribe(token);
    const person = read && (await repo.personOfJob(db, read.jobId));
    if (!person) return { kind: 'invalid' };
    const audiences = await repo.audiencesOf(db, person.email);
    return { kind: 'ready', unsubscribedEverywhere: person.unsubscribedEverywhere, audiences, form: formValue(token) };
  };

  return {
    view,

    /** The signed value the page's form carries (valid FORM_VALID_MS). */
    formValue,

    /** Whether `value` is the signed value of a page of this token, shown within FORM_VALID_MS. */
    checkForm(token: string, value: unknown, now = Date.now()): boolean {
      const match = typeof value === 'string' ? FORM_VALUE.exec(value) : null;
      if (!match) return false;
      const expected = Buffer.from(mac(token, match[1]!));
      const given = Buffer.from(match[2]!);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      return parseInt(match[1]!, 36) * 1000 > now;
    },

    /**
     * Saves the form: `input` holds `audience-{id}` ('on') for each audience switched on and
     * `field-{id}-{key}` for each field's value as written. An audience or a field the page did not show is
     * ignored; a field not posted keeps its value.
     */
    async save(token: string, input: Record<string, unknown>, request: SaveRequest): Promise<SaveResult> {
      const read = tokens.readUnsubscribe(token);
      if (!read) return { kind: 'invalid' };
      const posted = Object.fromEntries(Object.entries(input).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      return db.transaction(async (tx): Promise<SaveResult> => {
        const person = await repo.personOfJob(tx, read.jobId);
        if (!person) return { kind: 'invalid' };
        const audiences = await repo.audiencesOf(tx, person.email, true);
        const errors: string[] = [];
        const changes = audiences.map((audience) => {
          const values: Record<string, FieldValue | null> = {};
          for (const field of audience.fields) {
            const raw = posted[fieldInput(audience.audienceId, field.key)];
            if (raw === undefined) continue;
            const parsed = parseFieldValue(field, raw);
            if (!parsed.ok) errors.push(audiences.length > 1 ? `${audience.publicName}: ${parsed.error}` : parsed.error);
            else if (!same(audience.data[field.key], parsed.value)) values[field.key] = parsed.value;
          }
          return { audience, subscribed: posted[audienceInput(audience.audienceId)] === 'on', values };
        });
        if (errors.length > 0) {
          return {
            kind: 'errors',
            errors,
            posted,
            view: { kind: 'ready', unsubscribedEverywhere: person.unsubscribedEverywhere, audiences, form: formValue(token) },
          };
        }
        const saved: SavedPreferences = { left: [], joined: [], fields: [] };
        const evidence = { email: person.email, clientAddress: request.address ?? null, userAgent: request.userAgent ?? null };
        for (const { audience, subscribed, values } of changes) {
          const audienceId = audience.audienceId;
          if (subscribed !== audience.subscribed && (await repo.setSubscribed(tx, audienceId, person.email, subscribed))) {
            await appendConsent(tx, { ...evidence, audienceId, event: subscribed ? 'RESUBSCRIBED' : 'UNSUBSCRIBED' });
            (subscribed ? saved.joined : saved.left).push(audience.publicName);
          }
          const keys = Object.keys(values);
          if (keys.length > 0) {
            await repo.writeFields(tx, audienceId, person.email, values);
            await appendConsent(tx, { ...evidence, audienceId, event: 'PREFERENCES', detail: { fields: keys } });
            const labels = audience.fields.filter((field) => keys.includes(field.key)).map((field) => field.label);
            saved.fields.push({ audience: audience.publicName, labels });
          }
        }
        return { kind: 'saved', saved };
      });
    },
  };
}

export type PreferenceService = ReturnType<typeof createPreferenceService>;
