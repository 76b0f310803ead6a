/**
 * API keys (issue 27; docs/decisions/access.md, "API keys"): an admin makes a key with a name, scopes narrowed
 * from the contract's role table, and an expiry. The key (`mr_` + 32 random bytes, base64url) is answered once;
 * only its SHA-256 is stored. A key authenticates /api calls as `Authorization: Bearer mr_...` and acts as a
 * caller named after it, whose scopes access.ts checks on every call.
 *
 * Revocation and expiry reach every API process within a second: each process keeps what it read of a key for
 * KEY_CACHE_MS only (a lookup is one index probe, so this costs one statement per key and process twice a second
 * at most), and checks the expiry on every call. No HTTP, AMQP or SQL here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isRole } from '../../auth/roles.js';
import { NOT_FOR_API_KEYS, operationRoles } from '../../auth/access.js';
import type { Member } from '../../auth/verifier.js';
import type { Database } from '../../db/database.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { apiKeyRepository, type ApiKeyRow } from './repository.js';

/** What marks a bearer token as an API key rather than the identity provider's JWT. */
export const API_KEY_PREFIX = 'mr_';
/** How long a process trusts what it read of a key: under the one second a revocation must take. */
export const KEY_CACHE_MS = 500;
/** The longest life of a key: a forgotten key stops by itself. */
export const MAX_KEY_DAYS = 366;
export const API_KEY_NOT_FOUND = 'API key not found';
export const duplicateKeyName = (name: string) => `A key named “${name}” exists; revoke it or choose another name.`;

export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

const hashOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** The name the activity log records a key's calls under. */
export const keyActorName = (name: string) => `api key: ${name}`;

export interface ApiKeyServiceDeps {
  db: Database;
  /** The clock (tests move it). */
  now?: () => number;
}

export function createApiKeyService({ db, now = Date.now }: ApiKeyServiceDeps) {
  const repo = apiKeyRepository(db);
  const cache = new Map<string, { row: ApiKeyRow | undefined; readAt: number }>();

  function checkScopes(scopes: readonly string[]): string[] {
    const unique = [...new Set(scopes.map((scope) => scope.trim()))];
    if (unique.length === 0) throw new DomainError('invalid', 'Choose at least one scope');
    for (const scope of unique) {
      if (isRole(scope)) continue;
      if (!operationRoles().has(scope)) throw new DomainError('invalid', `“${scope}” is neither a role nor an operation of the API`);
      if (NOT_FOR_API_KEYS.has(scope)) throw new DomainError('invalid', `An API key cannot be given ${scope}`);
    }
    return unique;
  }

  return {
    async list(): Promise<ApiKey[]> {
      return (await repo.list()).map(toApiKey);
    },

    /** A new key: its row, and the key itself, which is never shown again. */
    async create(input: { name: string; scopes: string[]; expiresAt: string }, member: Member): Promise<ApiKey & { key: string }> {
      const name = input.name.trim();
      if (!name) throw new DomainError('invalid', 'Fill the key name');
      const scopes = checkScopes(input.scopes);
      const expiresAt = new Date(input.expiresAt);
      if (!(expiresAt.getTime() > now())) throw new DomainError('invalid', 'The expiry must be in the future');
      if (expiresAt.getTime() > now() + MAX_KEY_DAYS * 86_400_000) {
        throw new DomainError('invalid', `A key lives ${MAX_KEY_DAYS} days at most`);
      }
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insert(
          { name, hash: hashOf(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6), scopes, createdBy: member.email, expiresAt },
          tx,
        );
        if (inserted === 'duplicate') throw new DomainError('conflict', duplicateKeyName(name));
        // Who gave which powers to a machine, and until when: never the key itself.
        await recordActivity(tx, {
          actor: member,
          kind: 'api-key-create',
          object: { type: 'api-key', id: inserted.id, name },
          details: { scopes, expiresAt: expiresAt.toISOString() },
        });
        return inserted;
      });
      return { ...toApiKey(row), key };
    },

    async revoke(id: number, actor: Actor): Promise<ApiKey> {
      const row = await db.transaction(async (tx) => {
        const revoked = await repo.revoke(id, tx);
        if (!revoked) throw new DomainError('not-found', API_KEY_NOT_FOUND);
        await recordActivity(tx, { actor, kind: 'api-key-revoke', object: { type: 'api-key', id, name: revoked.name } });
        return revoked;
      });
      return toApiKey(row);
    },

    /**
     * The caller a key stands for, or undefined when it is unknown, revoked or expired. Read from this process's
     * cache when read less than KEY_CACHE_MS ago.
     */
    async authenticate(key: string): Promise<Member | undefined> {
      const hash = hashOf(key).toString('base64');
      const at = now();
      let entry = cache.get(hash);
      if (!entry || at - entry.readAt >= KEY_CACHE_MS) {
        entry = { row: await repo.byHash(hashOf(key)), readAt: now() };
        // Only known keys are kept: a guessed key is no entry (the sign-in failure limit slows guessing).
        if (entry.row) cache.set(hash, entry);
        else cache.delete(hash);
        if (cache.size > 10_000) cache.clear();
      }
      const row = entry.row;
      if (!row || row.revokedAt || row.expiresAt.getTime() <= at) return undefined;
      return {
        email: keyActorName(row.name),
        firstName: row.name,
        lastName: '',
        // A key acts with the scopes an admin gave it: the role passes, the scopes narrow (access.ts).
        role: 'admin',
        apiKey: { id: row.id, name: row.name, scopes: row.scopes },
      };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
