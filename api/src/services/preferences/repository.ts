/**
 * The preference centre's statements (issue 25): who a mail's job names, the organisation's audiences the
 * address is on that have a public name (one probe of (audience_id, address_key(email)) per audience, as
 * services/people reads a person), and a person's changes: an audience left or joined again, and field values.
 * Raw SQL: every statement finds the person by the folded address, across audiences.
 */
import type { FieldType, FieldValue } from '@mailroom/api-client/fields';
import type { Sql } from '../../db/database.js';
import { erasedMail } from '../suppressions/erased.js';

/** A field the audience lets the person edit (audience_fields.editable_by_person). */
export interface EditableField {
  key: string;
  label: string;
  type: FieldType;
  options: string[] | null;
  required: boolean;
}

/** One audience of the person's, as the preference centre shows it. */
export interface PersonAudience {
  audienceId: number;
  publicName: string;
  /** On while any of the address's contacts in the audience has not left it. */
  subscribed: boolean;
  /** The field values shown: those of the audience's first contact with the address. */
  data: Record<string, FieldValue>;
  fields: EditableField[];
}

export interface JobPerson {
  email: string;
  /** The address asked for no mail at all from the organisation (the unsubscribe link, a complaint). */
  unsubscribedEverywhere: boolean;
}

const AUDIENCES_OF = `
  SELECT a.id AS "audienceId", a.public_name AS "publicName", c.subscribed, coalesce(c.data, '{}') AS data,
         coalesce((SELECT jsonb_agg(jsonb_build_object('key', f.key, 'label', f.label, 'type', f.type,
                                                       'options', f.options, 'required', f.required) ORDER BY f.position)
                     FROM audience_fields f WHERE f.audience_id = a.id AND f.editable_by_person), '[]') AS fields
    FROM audiences a
    JOIN LATERAL (SELECT bool_or(c.unsubscribed_at IS NULL) AS subscribed, (array_agg(c.data ORDER BY c.id))[1] AS data
                    FROM contacts c WHERE c.audience_id = a.id AND address_key(c.email) = address_key($1)) c
      ON c.subscribed IS NOT NULL
   WHERE a.deleted_at IS NULL AND a.public_name IS NOT NULL
   ORDER BY a.public_name, a.id`;

export function preferenceRepository() {
  return {
    /** The address a mail was sent to; undefined for no such job, or a mail whose address was erased. */
    async personOfJob(sql: Sql, jobId: number): Promise<JobPerson | undefined> {
      const { rows } = await sql.query<JobPerson>(
        `SELECT j.email,
                EXISTS (SELECT 1 FROM suppressions s
                         WHERE s.email_lower = address_key(j.email) AND s.reason IN ('UNSUBSCRIBE', 'COMPLAINT')) AS "unsubscribedEverywhere"
           FROM campaign_jobs j WHERE j.id = $1 AND NOT ${erasedMail('j.email')}`,
        [jobId],
      );
      return rows[0];
    },

    /**
     * The live audiences with a public name that hold the address, by public name. With `lock` (in a
     * transaction), the audiences are held against a change of their fields (the field service locks the row)
     * and the address's contacts in them are locked until the transaction ends, then read again: two saves of
     * one person run one after the other, and each compares with what the other wrote.
     */
    async audiencesOf(sql: Sql, email: string, lock = false): Promise<PersonAudience[]> {
      const read = async () => (await sql.query<PersonAudience>(AUDIENCES_OF, [email])).rows;
      const rows = await read();
      if (!lock || rows.length === 0) return rows;
      const ids = rows.map((row) => row.audienceId);
      await sql.query(`SELECT 1 FROM audiences WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE`, [ids]);
      await sql.query(
        `SELECT 1 FROM contacts WHERE audience_id = ANY($1::bigint[]) AND address_key(email) = address_key($2) ORDER BY id FOR UPDATE`,
        [ids, email],
      );
      return read();
    },

    /** Leaves the audience (now) or joins it again; true when a contact of the address changed. */
    async setSubscribed(sql: Sql, audienceId: number, email: string, subscribed: boolean): Promise<boolean> {
      const { rowCount } = await sql.query(
        `UPDATE contacts SET unsubscribed_at = CASE WHEN $3 THEN NULL ELSE now() END
          WHERE audience_id = $1 AND address_key(email) = address_key($2) AND (unsubscribed_at IS NULL) <> $3`,
        [audienceId, email, subscribed],
      );
      return rowCount > 0;
    },

    /** Writes field values into the address's contacts of the audience; null removes the value (an empty field). */
    async writeFields(sql: Sql, audienceId: number, email: string, values: Record<string, FieldValue | null>): Promise<void> {
      const set = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
      const cleared = Object.keys(values).filter((key) => values[key] === null);
      await sql.query(
        `UPDATE contacts SET data = (data - $4::text[]) || $3::jsonb
          WHERE audience_id = $1 AND address_key(email) = address_key($2)`,
        [audienceId, email, JSON.stringify(set), cleared],
      );
    },
  };
}
