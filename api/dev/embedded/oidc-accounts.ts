/**
 * Accounts of the embedded OpenID provider (development and tests only; see team brief "Seeded accounts").
 * A member of the organisation's example domain and an outsider, both with the password `mailroom`; and one member of
 * each role (issue 27), whose `groups` claim EMBEDDED_ROLE_MAP maps to the role. Mia is in the admins' group, so with
 * the embedded provider she can do everything, as before roles.
 */
import { timingSafeEqual, createHash } from 'node:crypto';

export type EmbeddedAccount = {
  /** The OpenID `sub`. */
  accountId: string;
  email: string;
  password: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  /** The `groups` claim of the account's access token (issue 27). */
  groups: readonly string[];
};

/** The claim and map the stack uses with this provider when OIDC_ROLES_CLAIM and ROLE_MAP are not set. */
export const EMBEDDED_ROLES_CLAIM = 'groups';
export const EMBEDDED_ROLE_MAP = 'mailroom-viewers=viewer,mailroom-editors=editor,mailroom-senders=sender,mailroom-admins=admin';

export const SEEDED_ACCOUNTS: readonly EmbeddedAccount[] = Object.freeze([
  {
    accountId: 'mia-member',
    email: 'mia@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Mia',
    familyName: 'Member',
    groups: ['mailroom-admins'],
  },
  {
    accountId: 'vera-viewer',
    email: 'vera@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Vera',
    familyName: 'Viewer',
    groups: ['mailroom-viewers'],
  },
  {
    accountId: 'eddie-editor',
    email: 'eddie@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Eddie',
    familyName: 'Editor',
    groups: ['mailroom-editors'],
  },
  {
    accountId: 'sam-sender',
    email: 'sam@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Sam',
    familyName: 'Sender',
    groups: ['mailroom-senders'],
  },
  {
    accountId: 'ada-admin',
    email: 'ada@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Ada',
    familyName: 'Admin',
    groups: ['mailroom-admins'],
  },
  {
    accountId: 'otto-outsider',
    email: 'otto@outsider.test',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Otto',
    familyName: 'Outsider',
    groups: [],
  },
]);

export function findAccountById(accounts: readonly EmbeddedAccount[], accountId: string): EmbeddedAccount | undefined {
  return accounts.find((account) => account.accountId === accountId);
}

export function findAccountByEmail(accounts: readonly EmbeddedAccount[], email: string): EmbeddedAccount | undefined {
  const wanted = email.trim().toLowerCase();
  return accounts.find((account) => account.email.toLowerCase() === wanted);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The account for these credentials, or undefined. Compares in constant time. */
export function authenticateAccount(accounts: readonly EmbeddedAccount[], email: string, password: string): EmbeddedAccount | undefined {
  const account = findAccountByEmail(accounts, email);
  const expected = digest(account?.password ?? '\u0000no-account\u0000');
  const ok = timingSafeEqual(expected, digest(password));
  return account && ok ? account : undefined;
}

/** Every standard claim the provider can release for this account (the provider filters them by granted scope). */
export function accountClaims(account: EmbeddedAccount): {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
  name: string;
  groups: string[];
} {
  return {
    sub: account.accountId,
    email: account.email,
    email_verified: account.emailVerified,
    given_name: account.givenName,
    family_name: account.familyName,
    name: `${account.givenName} ${account.familyName}`.trim(),
    groups: [...account.groups],
  };
}
