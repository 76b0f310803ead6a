/**
 * In-memory storage for the embedded OpenID provider: one store per provider instance (oidc-provider's own quick-start
 * adapter is one process-wide LRU of 1000 entries and warns on every start). Sessions, grants and codes are lost on
 * restart, which is fine for development and tests.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

type Entry = { payload: AdapterPayload; expiresAt: number };

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

export function createMemoryAdapter(options: { clockToleranceSeconds?: number } = {}): AdapterFactory {
  const tolerance = (options.clockToleranceSeconds ?? 15) * 1000;
  const entries = new Map<string, Entry>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();
  let writes = 0;

  const keyOf = (model: string, id: string) => `${model}:${id}`;

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const { uid, userCode, grantId } = entry.payload;
    if (uid && byUid.get(uid) === key) byUid.delete(uid);
    if (userCode && byUserCode.get(userCode) === key) byUserCode.delete(userCode);
    if (grantId) {
      const members = byGrant.get(grantId);
      members?.delete(key);
      if (members && members.size === 0) byGrant.delete(grantId);
    }
  }

  function live(key: string | undefined): AdapterPayload | undefined {
    if (!key) return undefined;
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      remove(key);
      return undefined;
    }
    return { ...entry.payload };
  }

  function sweep(): void {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) remove(key);
  }

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const key = keyOf(model, id);
      remove(key);
      const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 + tolerance : Infinity;
      entries.set(key, { payload: { ...payload }, expiresAt });
      if (payload.uid) byUid.set(payload.uid, key);
      if (payload.userCode) byUserCode.set(payload.userCode, key);
      if (GRANTABLE.has(model) && payload.grantId) {
        const members = byGrant.get(payload.grantId) ?? new Set<string>();
        members.add(key);
        byGrant.set(payload.grantId, members);
      }
      writes += 1;
      if (writes % 200 === 0) sweep();
    },
    async find(id) {
      return live(keyOf(model, id));
    },
    async findByUid(uid) {
      return live(byUid.get(uid));
    },
    async findByUserCode(userCode) {
      return live(byUserCode.get(userCode));
    },
    async consume(id) {
      const entry = entries.get(keyOf(model, id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      remove(keyOf(model, id));
    },
    async revokeByGrantId(grantId) {
      // Only this model's tokens; the Grant itself is destroyed separately when the revocation policy says so.
      const prefix = `${model}:`;
      for (const key of [...(byGrant.get(grantId) ?? [])]) if (key.startsWith(prefix)) remove(key);
    },
  });
}
