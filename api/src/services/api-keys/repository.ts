/** The statements of API keys (issue 27): every one of the feature, by hash or by id. */
import type { Database, Sql } from '../../db/database.js';

export interface ApiKeyRow {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const COLUMNS = `id::int AS id, name, key_prefix AS prefix, scopes, created_by AS "createdBy", created_at AS "createdAt",
  expires_at AS "expiresAt", revoked_at AS "revokedAt"`;

export function apiKeyRepository(db: Database) {
  return {
    /** The new key's row, or 'duplicate' when a live key has that name (without regard to case). */
    async insert(row: { name: string; hash: Buffer; prefix: string; scopes: string[]; createdBy: string; expiresAt: Date }, sql: Sql = db) {
      const { rows } = await sql.query<ApiKeyRow>(
        `INSERT INTO api_keys (name, key_hash, key_prefix, scopes, created_by, expires_at)
         SELECT $1, $2, $3, $4, $5, $6
          WHERE NOT EXISTS (SELECT 1 FROM api_keys WHERE lower(name) = lower($1) AND revoked_at IS NULL)
         ON CONFLICT DO NOTHING
         RETURNING ${COLUMNS}`,
        [row.name, row.hash, row.prefix, row.scopes, row.createdBy, row.expiresAt],
      );
      return rows[0] ?? ('duplicate' as const);
    },

    /** Every key, newest first: the live ones and the revoked (kept: the activity log names them). */
    async list(): Promise<ApiKeyRow[]> {
      const { rows } = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at DESC, id DESC`);
      return rows;
    },

    /** The key of this hash, revoked or not. */
    async byHash(hash: Buffer): Promise<ApiKeyRow | undefined> {
      const { rows } = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [hash]);
      return rows[0];
    },

    /** Revokes the key (once: a second revoke keeps the first time). Undefined when there is no such key. */
    async revoke(id: number, sql: Sql = db): Promise<ApiKeyRow | undefined> {
      const { rows } = await sql.query<ApiKeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
        [id],
      );
      return rows[0];
    },
  };
}
