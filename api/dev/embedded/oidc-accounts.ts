/**
 * Accounts of the embedded OpenID provider (development and tests only; see team brief "Seeded accounts").
 * A member of the organisation's example domain and an outsider, both with the password `mailroom`.
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
};

export const SEEDED_ACCOUNTS: readonly EmbeddedAccount[] = Object.freeze([
  {
    accountId: 'mia-member',
    email: 'mia@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Mia',
    familyName: 'Member',
  },
  // A second member of the domain: send approval (issue 27) needs someone other than the requester to answer.
  {
    accountId: 'sam-second',
    email: 'sam@example.org',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Sam',
    familyName: 'Second',
  },
  {
    accountId: 'otto-outsider',
    email: 'otto@outsider.test',
    password: 'mailroom',
    emailVerified: true,
    givenName: 'Otto',
    familyName: 'Outsider',
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
} {
  return {
    sub: account.accountId,
    email: account.email,
    email_verified: account.emailVerified,
    given_name: account.givenName,
    family_name: account.familyName,
    name: `${account.givenName} ${account.familyName}`.trim(),
  };
}
