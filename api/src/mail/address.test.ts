import { describe, expect, it } from 'vitest';
import { recipientAddress, sesRecipient } from './address.js';

describe('sesRecipient', () => {
  it.each([
    ['ann@example.org', 'ann@example.org'],
    ['Ann@MÜNCHEN.de', 'Ann@xn--mnchen-3ya.de'],
    ['x@straße.de', 'x@xn--strae-oqa.de'],
    ['x@ελληνικά.gr', 'x@xn--hxargifdar.gr'],
  ])('sends %s as %s', (email, sent) => expect(sesRecipient(email)).toBe(sent));

  it.each(['café@münchen.de', 'ΟΔΟΣ@uni.example', 'İX@uni.example', 'jürgen@example.org', `a@${'ü'.repeat(70)}.de`])(
    'refuses %s, as SES would',
    (email) => expect(sesRecipient(email)).toBeUndefined(),
  );
});

describe('recipientAddress', () => {
  it("gives an event's recipient the domain the contact has", () => {
    expect(recipientAddress('Ann@XN--MNCHEN-3YA.de')).toBe('Ann@münchen.de');
    expect(recipientAddress('ann@example.org')).toBe('ann@example.org');
    expect(recipientAddress('odd@xn--.de')).toBe('odd@xn--.de');
  });
  it('turns back what sesRecipient sent', () => {
    for (const email of ['ann@münchen.de', 'x@ελληνικά.gr', 'y@例え.テスト']) expect(recipientAddress(sesRecipient(email)!)).toBe(email);
  });
});
