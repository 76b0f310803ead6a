/**
 * Who may do what (issue 27; docs/decisions/access.md): the four roles, each allowed everything the one below it is.
 * Shared by the API (which enforces the contract's x-mailroom-role table) and the screens (which hide or disable what
 * the member's role cannot do, and say who can), so both speak of roles in the same words.
 */
export const ROLES = ['viewer', 'editor', 'sender', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** True when `role` may do what `needed` allows. */
export const roleAllows = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** The higher of two roles. */
export const higherRole = (a: Role, b: Role): Role => (ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b);

/** The roles allowed what `needed` allows, as a person reads them: 'Senders and admins'. */
export function whoCan(needed: Role): string {
  const names = ROLES.slice(ROLES.indexOf(needed)).map((role) => `${role}s`);
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return listed.charAt(0).toUpperCase() + listed.slice(1);
}

/** A role as a label: 'Editor'. */
export const roleLabel = (role: Role): string => role.charAt(0).toUpperCase() + role.slice(1);
