/**
 * Recipient addresses as SES takes them, and back. SES sends in 7-bit ASCII only (it has no
 * SMTPUTF8): a local part beyond ASCII is refused ("Illegal address"), and an internationalised
 * domain must travel in its ASCII form (IDNA: `münchen.de` as `xn--mnchen-3ya.de`). The import
 * judges addresses with sesRecipient, so what imports as valid is what SES will take.
 */
import { domainToASCII, domainToUnicode } from 'node:url';

const ASCII = /^\p{ASCII}*$/u;
/** An IDNA A-label: a domain with one went to SES in its ASCII form. */
const A_LABEL = /(?:^|\.)xn--/i;

/**
 * The address as SES takes it (an internationalised domain in its ASCII form), or undefined when SES
 * cannot send to it: a local part beyond ASCII, or a domain without an ASCII form within the DNS's
 * lengths (253 characters, 63 a label; 254 for the address).
 */
export function sesRecipient(email: string): string | undefined {
  if (ASCII.test(email)) return email;
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  if (at < 1 || !ASCII.test(local)) return undefined;
  const domain = domainToASCII(email.slice(at + 1));
  if (domain === '' || domain.length > 253 || domain.split('.').some((label) => label === '' || label.length > 63)) return undefined;
  const address = `${local}@${domain}`;
  return address.length <= 254 ? address : undefined;
}

/**
 * An SES event's recipient as Mailroom keeps it: a domain sent in its ASCII form back in Unicode, so
 * that its suppression, soft bounces and mail are found by the address the contact has.
 */
export function recipientAddress(sesAddress: string): string {
  const at = sesAddress.lastIndexOf('@');
  const domain = sesAddress.slice(at + 1);
  if (at < 1 || !A_LABEL.test(domain)) return sesAddress;
  const unicode = domainToUnicode(domain);
  return unicode === '' ? sesAddress : `${sesAddress.slice(0, at)}@${unicode}`;
}
