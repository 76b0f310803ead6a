/**
 * One contact (issue 24; docs/decisions/audiences-and-imports.md): its drawer's read, and a member's
 * addition, edit and deletion of a single contact. The rules:
 *  - every value is checked with the fields' own rules (@mailroom/api-client/fields, as the drawer
 *    checks it), a refusal names the field and why, and nothing is stored;
 *  - an address is checked as the import checks it: well formed and sendable, not twice in the
 *    audience; an erased one only with the person's fresh consent; a suppressed one is taken and
 *    shows as suppressed (the send skips it);
 *  - the audience's numbers stay dense and its counts right (numbering-repository.ts), under the
 *    audience row's lock; nothing changes while it imports;
 *  - the activity log names the contact by id and the fields changed, never an address or a value
 *    (so an erasure has nothing to rewrite there).
 * The sender reads a contact's data when it claims its mail, so an edit takes effect for the next mail.
 */
import type { ContactDetail, ContactChange, NewContact } from '@mailroom/api-client';
import { checkFieldValue, type FieldValue } from '@mailroom/api-client/fields';
import type { Database, Tx } from '../../db/database.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { AUDIENCE_NOT_FOUND } from '../audiences/audience-service.js';
import { appendConsent } from '../consent/repository.js';
import { DomainError } from '../errors.js';
import { listAudienceFields } from '../fields/repository.js';
import { IMPORT_RUNNING } from '../imports/import-service.js';
import { contactHistory, erasedAt, findContact, liftErasure, sameAddressInAudience, type StoredContact } from './contact-repository.js';
import { INVALID_EMAIL, isValidEmail, unsendableReason } from './email.js';
import { appendContact, lockAudienceRow, removeContacts, rewriteContact, type LockedAudience } from './numbering-repository.js';

export const CONTACT_NOT_FOUND = 'Contact not found';
export const ADDRESS_IN_AUDIENCE = 'This address is already in the audience.';
export const UNKNOWN_FIELD = (key: string) => `This audience has no field '${key.slice(0, 64)}'.`;
export const ERASED_ADDRESS = (at: Date) =>
  `This address was erased on ${at.toISOString().slice(0, 10)}: it can be added again only with fresh consent.`;

export interface ContactServiceDeps {
  db: Database;
}

type FieldDefinition = ContactDetail['fields'][number];

/**
 * The audience's fields as the contract has them. A header without a field row (an import that did not
 * write its fields yet) is what every column was before fields had types: a TEXT field of its own name.
 */
const definitions = (typed: FieldDefinition[], headers: readonly string[]): FieldDefinition[] => {
  const keys = new Set(typed.map((field) => field.key));
  const untyped = headers
    .filter((header) => !keys.has(header))
    .map((key, i): FieldDefinition => ({
      key,
      label: key,
      type: 'TEXT',
      options: null,
      required: false,
      editableByPerson: false,
      position: typed.length + i + 1,
    }));
  return [...typed, ...untyped];
};

/** An address as the import reads it: trimmed, well formed and sendable; else a 400 saying why. */
function checkedAddress(raw: string): string {
  const email = raw.trim();
  if (!isValidEmail(email)) throw new DomainError('invalid', INVALID_EMAIL);
  const unsendable = unsendableReason(email);
  if (unsendable) throw new DomainError('invalid', unsendable);
  return email;
}

/**
 * The contact's data after `changes`: each changed value checked against its field, then every value
 * it keeps (an imported row's values, a required field left empty), so that what is stored is valid
 * whole. Unknown keys are refused. Answers the new data and the keys whose value changed.
 */
function checkedData(
  fields: FieldDefinition[],
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
): { data: Record<string, FieldValue>; changed: string[] } {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const unknown = Object.keys(changes).find((key) => !byKey.has(key));
  if (unknown !== undefined) throw new DomainError('invalid', UNKNOWN_FIELD(unknown));
  const data: Record<string, FieldValue> = {};
  const changed: string[] = [];
  for (const field of fields) {
    const given = Object.hasOwn(changes, field.key);
    const checked = checkFieldValue(field, given ? changes[field.key] : current[field.key]);
    if (!checked.ok) throw new DomainError('invalid', checked.error);
    if (checked.value !== null) data[field.key] = checked.value;
    if (given && checked.value !== (current[field.key] ?? null)) changed.push(field.key);
  }
  return { data, changed };
}

export function createContactService({ db }: ContactServiceDeps) {
  /** The audience row locked for a change of its contacts: live and not importing. */
  const lockedAudience = async (tx: Tx, audienceId: number): Promise<LockedAudience> => {
    const audience = await lockAudienceRow(tx, audienceId);
    if (!audience || audience.deleted) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
    if (audience.isImporting) throw new DomainError('conflict', IMPORT_RUNNING);
    return audience;
  };

  const lockedContact = async (tx: Tx, audienceId: number, contactId: number): Promise<StoredContact> => {
    const contact = await findContact(tx, audienceId, contactId, true);
    if (!contact) throw new DomainError('not-found', CONTACT_NOT_FOUND);
    return contact;
  };

  /** A new address for the audience: not in it already, and not erased unless the person consented again. */
  const admitAddress = async (tx: Tx, audienceId: number, email: string, freshConsent: boolean, exceptId?: number) => {
    if (await sameAddressInAudience(tx, audienceId, email, exceptId)) throw new DomainError('conflict', ADDRESS_IN_AUDIENCE);
    const erased = await erasedAt(tx, email);
    if (erased && !freshConsent) throw new DomainError('invalid', ERASED_ADDRESS(erased));
    if (erased) await liftErasure(tx, email);
    return erased !== null;
  };

  const fieldsOf = async (tx: Tx, audienceId: number, headers: readonly string[]) =>
    definitions(await listAudienceFields(db, audienceId, tx), headers);

  const detail = async (
    sql: Database | Tx,
    contact: Pick<StoredContact, 'id' | 'audienceId' | 'email' | 'errorMessage' | 'data'>,
    fields: FieldDefinition[],
  ) => {
    const history = await contactHistory(sql, contact.audienceId, contact.id);
    return {
      id: contact.id,
      audienceId: contact.audienceId,
      email: contact.email,
      errorMessage: contact.errorMessage,
      data: contact.data as ContactDetail['data'],
      fields,
      ...history,
    };
  };

  return {
    async get(audienceId: number, contactId: number): Promise<ContactDetail> {
      return db.transaction(
        async (tx) => {
          const contact = await findContact(tx, audienceId, contactId);
          if (!contact) throw new DomainError('not-found', CONTACT_NOT_FOUND);
          return detail(tx, contact, await fieldsOf(tx, audienceId, contact.headers));
        },
        { isolation: 'REPEATABLE READ', readOnly: true },
      );
    },

    async add(audienceId: number, body: NewContact, actor: Actor): Promise<ContactDetail> {
      const email = checkedAddress(body.email);
      return db.transaction(async (tx) => {
        const audience = await lockedAudience(tx, audienceId);
        const fields = await fieldsOf(tx, audienceId, audience.headers);
        const { data, changed } = checkedData(fields, {}, body.data ?? {});
        const reconsented = await admitAddress(tx, audienceId, email, body.freshConsent === true);
        const id = await appendContact(tx, audience, { email, data, errorMessage: null });
        // The consent ledger's entry, in the addition's transaction: an erased address re-added with fresh consent too.
        await appendConsent(tx, {
          event: 'ADDED',
          audienceId,
          email,
          memberEmail: actor.email,
          lawfulBasis: body.lawfulBasis ?? null,
          detail: reconsented ? { freshConsent: true } : null,
        });
        await recordActivity(tx, {
          actor,
          kind: 'contact-add',
          object: { type: 'audience', id: audienceId, name: audience.name },
          details: { contactId: id, fields: changed, ...(reconsented ? { freshConsent: true } : {}) },
        });
        return detail(tx, { id, audienceId, email, errorMessage: null, data }, fields);
      });
    },

    async update(audienceId: number, contactId: number, change: ContactChange, actor: Actor): Promise<ContactDetail> {
      const newEmail = change.email === undefined ? undefined : checkedAddress(change.email);
      return db.transaction(async (tx) => {
        const audience = await lockedAudience(tx, audienceId);
        const contact = await lockedContact(tx, audienceId, contactId);
        const fields = await fieldsOf(tx, audienceId, audience.headers);
        const { data, changed } = checkedData(fields, contact.data, change.data ?? {});
        // The address it keeps is checked as a new one would be: an error row's address is what its error may be.
        const email = newEmail ?? checkedAddress(contact.email);
        const addressChanged = email !== contact.email;
        let reconsented = false;
        if (addressChanged) reconsented = await admitAddress(tx, audienceId, email, change.freshConsent === true, contactId);
        else if (contact.errorMessage !== null && (await sameAddressInAudience(tx, audienceId, email, contactId)))
          throw new DomainError('conflict', ADDRESS_IN_AUDIENCE);
        await rewriteContact(tx, audience, contact, { email, data });
        const fieldsChanged = addressChanged ? ['email', ...changed] : changed;
        await recordActivity(tx, {
          actor,
          kind: 'contact-edit',
          object: { type: 'audience', id: audienceId, name: audience.name },
          details: { contactId, fields: fieldsChanged, ...(reconsented ? { freshConsent: true } : {}) },
        });
        return detail(tx, { ...contact, email, data, errorMessage: null }, fields);
      });
    },

    async remove(audienceId: number, contactId: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const audience = await lockedAudience(tx, audienceId);
        const contact = await lockedContact(tx, audienceId, contactId);
        await removeContacts(tx, [audience], [contact]);
        await recordActivity(tx, {
          actor,
          kind: 'contact-delete',
          object: { type: 'audience', id: audienceId, name: audience.name },
          details: { contactId },
        });
      });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
