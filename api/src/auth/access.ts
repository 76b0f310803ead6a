/**
 * The contract's role table (issue 27): every /api operation of openapi.yaml declares `x-mailroom-role`, the lowest
 * role allowed to call it. This is the one place that reads it and decides; the bearer check calls `authorize` with the
 * operation the contract's validator matched, so no route repeats a role and an operation added later is covered by
 * its declaration alone.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { AuthError, type Member } from './verifier.js';
import { isRole, roleAllows, whoCan, type Role } from './roles.js';

const SPEC_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../../openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface OperationRole {
  operationId: string;
  method: string;
  path: string;
  role: Role;
}

/** Every /api operation with its role, read from the contract (throws when one lacks a valid x-mailroom-role). */
export function readOperationRoles(specText = readFileSync(SPEC_PATH, 'utf8')): OperationRole[] {
  const doc = parse(specText) as { paths: Record<string, Record<string, { operationId?: string; 'x-mailroom-role'?: unknown }>> };
  const table: OperationRole[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const role = op['x-mailroom-role'];
      if (!op.operationId || !isRole(role)) throw new Error(`${method.toUpperCase()} ${path}: no valid x-mailroom-role in openapi.yaml`);
      table.push({ operationId: op.operationId, method: method.toUpperCase(), path, role });
    }
  }
  return table;
}

let cached: Map<string, OperationRole> | undefined;

/** operationId → its row of the table (read once per process). */
export function operationRoles(): ReadonlyMap<string, OperationRole> {
  cached ??= new Map(readOperationRoles().map((row) => [row.operationId, row]));
  return cached;
}

/**
 * Operations an API key may never call, whatever its scopes: a key that could make keys would outlive its own
 * revocation through the keys it made.
 */
export const NOT_FOR_API_KEYS: ReadonlySet<string> = new Set(['listApiKeys', 'createApiKey', 'revokeApiKey']);

/** True when an API key's scopes allow the operation: a role scope allows what that role may, an operationId scope that one operation. */
export function scopesAllow(scopes: readonly string[], operation: Pick<OperationRole, 'operationId' | 'role'>): boolean {
  if (NOT_FOR_API_KEYS.has(operation.operationId)) return false;
  return scopes.some((scope) => (isRole(scope) ? roleAllows(scope, operation.role) : scope === operation.operationId));
}

/**
 * Refuses (AuthError 403, with a message naming who can) a caller whose role, or whose API key's scopes, do not
 * allow the operation. An operation missing from the table is refused too: a new operation is closed until declared.
 */
export function authorize(member: Member, operationId: string | undefined): void {
  const operation = operationId ? operationRoles().get(operationId) : undefined;
  if (!operation) throw new AuthError(403, 'This call is not open to anyone');
  if (!roleAllows(member.role, operation.role)) {
    throw new AuthError(403, `${whoCan(operation.role)} can do this; you are ${member.role === 'editor' ? 'an' : 'a'} ${member.role}`);
  }
  if (member.apiKey && !scopesAllow(member.apiKey.scopes, operation)) {
    throw new AuthError(
      403,
      `The API key "${member.apiKey.name}" has no scope for ${operation.operationId}: it needs the ${operation.role} scope or a higher one, or ${operation.operationId} itself`,
    );
  }
}
