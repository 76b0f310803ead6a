import { sesRecipient } from '../../mail/address.js';

/**
 * Whether an imported address can be mailed. Pragmatic, not the full RFC 5322 grammar: what SES
 * accepts and what people type. One @, a dot-atom local part (no spaces, quotes or brackets, no
 * leading, trailing or double dot), a dotted domain of letter/digit labels (IDN letters allowed)
 * ending in a label of two or more letters, at most 254 characters (RFC 5321 path limit) and
 * 64 before the @.
 */
// ASCII first (nearly every address); the Unicode forms (slower regexes) only for the rest.
const ASCII_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const ASCII_DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const NON_ASCII = /[\u0080-\uffff]/;
const LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,63}$/u;

export const MISSING_EMAIL = 'Missing email address';
export const INVALID_EMAIL = 'Invalid email address';
export const DUPLICATE_EMAIL = 'Duplicate email address in this audience';
export const NON_ASCII_LOCAL_PART = 'Invalid email address: Amazon SES cannot send to letters beyond ASCII before the @';

export function isValidEmail(email: string): boolean {
  if (email.length > 254) return false;
  const at = email.lastIndexOf('@');
  if (at < 1 || at > 64 || at === email.length - 1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!NON_ASCII.test(email)) return ASCII_LOCAL.test(local) && ASCII_DOMAIN.test(domain);
  return LOCAL.test(local) && DOMAIN.test(domain);
}

/**
 * Why SES cannot send to a well-formed address (isValidEmail), or undefined when it can: a local part
 * beyond ASCII, or a domain without an ASCII form (mail/address.ts). The import judges addresses as
 * the sender will, so such an address is invalid at import rather than refused at send.
 */
export function unsendableReason(email: string): string | undefined {
  if (!NON_ASCII.test(email) || sesRecipient(email) !== undefined) return undefined;
  return NON_ASCII.test(email.slice(0, email.lastIndexOf('@'))) ? NON_ASCII_LOCAL_PART : INVALID_EMAIL;
}
