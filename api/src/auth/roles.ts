/**
 * Who may do what (issue 27; docs/decisions/access.md): four roles, each allowed everything the one below it is.
 * A member's role comes from a claim of the identity provider's token (OIDC_ROLES_CLAIM), whose values
 * ROLE_MAP turns into roles. Without ROLE_MAP every member is admin: the spec's behaviour, unchanged.
 */
import { higherRole, isRole, ROLES, type Role } from '@mailroom/mf-contract/roles';

export { higherRole, isRole, roleAllows, ROLES, whoCan, type Role } from '@mailroom/mf-contract/roles';

/** Claim value → role (ROLE_MAP). Empty: no mapping, every member is admin. */
export type RoleMap = ReadonlyMap<string, Role>;

/**
 * ROLE_MAP as written: `claim-value=role` pairs separated by commas (`mailroom-admins=admin,mailroom-senders=sender`).
 * A value may appear once; a role must be one of ROLES. Throws an Error naming the first bad pair.
 */
export function parseRoleMap(text: string): RoleMap {
  const map = new Map<string, Role>();
  for (const pair of text.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.lastIndexOf('=');
    const value = at < 0 ? '' : pair.slice(0, at).trim();
    const role =
      at < 0
        ? ''
        : pair
            .slice(at + 1)
            .trim()
            .toLowerCase();
    if (!value || !isRole(role)) throw new Error(`"${pair.trim()}" is not value=role with a role of ${ROLES.join(', ')}`);
    if (map.has(value)) throw new Error(`"${value}" is mapped twice`);
    map.set(value, role);
  }
  if (map.size === 0) throw new Error('names no value=role pair');
  return map;
}

/** The value at a dotted path of the claims (`realm_access.roles`, `resource_access.mailroom.roles`, `groups`). */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  // A claim whose own name has dots (some providers' namespaced claims) is found before the path is walked.
  if (path in claims) return claims[path];
  let node: unknown = claims;
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The member's role: with no map, admin; otherwise the highest role any of the claim's values maps to,
 * and viewer when none does (a member of the domain reads, but changes nothing until someone grants a role).
 * The claim may be a list or a single string; groups may come as paths ('/mailroom-admins'), matched also without the slash.
 */
export function roleFromClaims(claims: Record<string, unknown>, rolesClaim: string, roleMap: RoleMap): Role {
  if (roleMap.size === 0) return 'admin';
  const raw = claimAt(claims, rolesClaim);
  const values = (Array.isArray(raw) ? raw : [raw]).filter((value): value is string => typeof value === 'string');
  let role: Role | undefined;
  for (const value of values) {
    const mapped = roleMap.get(value) ?? (value.startsWith('/') ? roleMap.get(value.slice(1)) : undefined);
    if (mapped) role = role ? higherRole(role, mapped) : mapped;
  }
  return role ?? 'viewer';
}
