/** The part after the last '@', lower-cased ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** Exactly the organisation's domain: 'evil-example.org' and 'mail.example.org' are not 'example.org'. */
export function isOrgMember(email: string | undefined, orgDomain: string): boolean {
  return !!email && !!orgDomain && emailDomain(email) === orgDomain.trim().toLowerCase();
}

export const nonMemberMessage = (orgName: string) => `Only members of ${orgName} can log in.`;
