/**
 * Sign-up forms and their consent wordings (migration 0026). The audience's fields are read here with
 * a query of their own (audience_fields, migration 0021): the fields feature owns their changes.
 */
import type { FieldType } from '@mailroom/api-client/fields';
import type { Database, Sql, Tx } from '../../db/database.js';

export interface FormField {
  key: string;
  required: boolean;
}

/** A form as stored, with its current wording. */
export interface FormRecord {
  id: number;
  audienceId: number;
  slug: string;
  name: string;
  description: string;
  fields: FormField[];
  consentWording: string;
  consentVersion: number;
  confirmationRequired: boolean;
  successMessage: string;
  successUrl: string | null;
  allowedOrigins: string[];
  mailSubject: string;
  mailText: string;
  fromName: string;
  fromEmail: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a member sets; the slug and the version are the repository's. */
export type FormValues = Omit<FormRecord, 'id' | 'audienceId' | 'slug' | 'consentVersion' | 'createdAt' | 'updatedAt'>;

/** One field of the audience, as a form offers it. */
export interface AudienceFieldRule {
  key: string;
  label: string;
  type: FieldType;
  options: string[] | null;
  required: boolean;
}

interface FormRow {
  id: string;
  audience_id: string;
  slug: string;
  name: string;
  description: string;
  fields: FormField[];
  wording: string;
  consent_version: number;
  confirmation_required: boolean;
  success_message: string;
  success_url: string | null;
  allowed_origins: string[];
  mail_subject: string;
  mail_text: string;
  from_name: string;
  from_email: string;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (row: FormRow): FormRecord => ({
  id: Number(row.id),
  audienceId: Number(row.audience_id),
  slug: row.slug,
  name: row.name,
  description: row.description,
  fields: row.fields,
  consentWording: row.wording,
  consentVersion: row.consent_version,
  confirmationRequired: row.confirmation_required,
  successMessage: row.success_message,
  successUrl: row.success_url,
  allowedOrigins: row.allowed_origins,
  mailSubject: row.mail_subject,
  mailText: row.mail_text,
  fromName: row.from_name,
  fromEmail: row.from_email,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const SELECT_FORM = `SELECT f.*, w.wording FROM signup_forms f
  JOIN signup_form_wordings w ON w.form_id = f.id AND w.version = f.consent_version`;

export function formsRepository(db: Database) {
  const one = async (sql: Sql, where: string, value: unknown): Promise<FormRecord | undefined> => {
    const { rows } = await sql.query<FormRow>(`${SELECT_FORM} WHERE ${where}`, [value]);
    return rows[0] && toRecord(rows[0]);
  };

  return {
    /** Whether a live audience (not deleted) has this id. */
    async audienceExists(audienceId: number): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM audiences WHERE id = $1 AND deleted_at IS NULL', [audienceId]);
      return rows.length > 0;
    },

    async audienceFields(audienceId: number, sql: Sql = db): Promise<AudienceFieldRule[]> {
      const { rows } = await sql.query<AudienceFieldRule>(
        `SELECT key, label, type, options, required FROM audience_fields WHERE audience_id = $1 ORDER BY position, key`,
        [audienceId],
      );
      return rows;
    },

    async list(audienceId: number): Promise<FormRecord[]> {
      const { rows } = await db.query<FormRow>(`${SELECT_FORM} WHERE f.audience_id = $1 ORDER BY f.id`, [audienceId]);
      return rows.map(toRecord);
    },

    byId: (id: number, sql: Sql = db) => one(sql, 'f.id = $1', id),

    /** A form of a live audience, by its public slug. */
    bySlug: (slug: string) =>
      one(db, 'f.slug = $1 AND EXISTS (SELECT 1 FROM audiences a WHERE a.id = f.audience_id AND a.deleted_at IS NULL)', slug),

    /** The form's row locked for a change (the wording's version is decided under it). */
    lock: (tx: Tx, id: number) => one(tx, 'f.id = $1 FOR UPDATE OF f', id),

    async create(tx: Tx, audienceId: number, slug: string, values: FormValues, createdBy: string): Promise<number> {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO signup_forms (audience_id, slug, name, description, fields, confirmation_required, success_message,
           success_url, allowed_origins, mail_subject, mail_text, from_name, from_email, created_by_email)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14) RETURNING id`,
        [audienceId, slug, ...columnValues(values), createdBy],
      );
      const id = Number(rows[0]!.id);
      await tx.query(`INSERT INTO signup_form_wordings (form_id, version, wording) VALUES ($1, 1, $2)`, [id, values.consentWording]);
      return id;
    },

    async update(tx: Tx, id: number, values: FormValues, consentVersion: number): Promise<void> {
      await tx.query(
        `UPDATE signup_forms SET name = $2, description = $3, fields = $4::jsonb, confirmation_required = $5, success_message = $6,
           success_url = $7, allowed_origins = $8::jsonb, mail_subject = $9, mail_text = $10, from_name = $11, from_email = $12,
           consent_version = $13, updated_at = now()
         WHERE id = $1`,
        [id, ...columnValues(values), consentVersion],
      );
    },

    /** Whether a sign-up (pending, or in the ledger) names this wording version. */
    async versionUsed(tx: Tx, formId: number, version: number): Promise<boolean> {
      const { rows } = await tx.query(
        `SELECT EXISTS (SELECT 1 FROM pending_signups WHERE form_id = $1 AND consent_version = $2)
             OR EXISTS (SELECT 1 FROM consent_ledger WHERE form_id = $1 AND consent_version = $2) AS used`,
        [formId, version],
      );
      return (rows[0] as { used: boolean }).used;
    },

    /** Writes the wording of `version`: a new version, or the unused current one rewritten. */
    async putWording(tx: Tx, formId: number, version: number, wording: string): Promise<void> {
      await tx.query(
        `INSERT INTO signup_form_wordings (form_id, version, wording) VALUES ($1, $2, $3)
         ON CONFLICT (form_id, version) DO UPDATE SET wording = EXCLUDED.wording, created_at = now()`,
        [formId, version, wording],
      );
    },

    /** The wording a version showed (the ledger copies it). */
    async wording(sql: Sql, formId: number, version: number): Promise<string | undefined> {
      const { rows } = await sql.query<{ wording: string }>(
        `SELECT wording FROM signup_form_wordings WHERE form_id = $1 AND version = $2`,
        [formId, version],
      );
      return rows[0]?.wording;
    },

    async remove(id: number, sql: Sql = db): Promise<boolean> {
      const { rowCount } = await sql.query('DELETE FROM signup_forms WHERE id = $1', [id]);
      return rowCount > 0;
    },
  };
}

function columnValues(values: FormValues): unknown[] {
  return [
    values.name,
    values.description,
    JSON.stringify(values.fields),
    values.confirmationRequired,
    values.successMessage,
    values.successUrl,
    JSON.stringify(values.allowedOrigins),
    values.mailSubject,
    values.mailText,
    values.fromName,
    values.fromEmail,
  ];
}

export type FormsRepository = ReturnType<typeof formsRepository>;
