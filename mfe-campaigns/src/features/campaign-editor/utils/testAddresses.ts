/** A test email goes to at most this many addresses (the contract's bound). */
export const MAX_TEST_ADDRESSES = 20;

// What the API's `format: email` accepts in practice: something@domain.tld, no spaces.
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** The test email dialog's comma-separated addresses, trimmed, without blanks and repeats; or what is wrong with them. */
export function parseTestAddresses(text: string): { emails: string[] } | { problem: string } {
  const emails = [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (emails.length === 0) return { problem: 'Enter at least one email address' };
  const invalid = emails.filter((email) => email.length > 320 || !EMAIL.test(email));
  if (invalid.length > 0) return { problem: `Not an email address: ${invalid.join(', ')}` };
  if (emails.length > MAX_TEST_ADDRESSES) return { problem: `At most ${MAX_TEST_ADDRESSES} addresses` };
  return { emails };
}
