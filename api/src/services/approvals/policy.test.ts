import { describe, expect, it } from 'vitest';
import { approvalPolicy, NO_APPROVAL } from './policy.js';

describe('the approval policy', () => {
  it('asks nothing when neither setting is set (the spec)', () => {
    expect(approvalPolicy(NO_APPROVAL)({ numberOfContacts: 1_000_000 })).toBe(false);
  });

  it('asks for every campaign with SEND_APPROVAL, whatever its audience', () => {
    const needs = approvalPolicy({ always: true, above: undefined });
    expect(needs({ numberOfContacts: 0 })).toBe(true);
    expect(needs({ numberOfContacts: 10 })).toBe(true);
  });

  it('asks only above SEND_APPROVAL_ABOVE contacts: the threshold itself needs none', () => {
    const needs = approvalPolicy({ always: false, above: 100 });
    expect(needs({ numberOfContacts: 100 })).toBe(false);
    expect(needs({ numberOfContacts: 101 })).toBe(true);
    expect(approvalPolicy({ always: false, above: 0 })({ numberOfContacts: 0 })).toBe(false);
    expect(approvalPolicy({ always: false, above: 0 })({ numberOfContacts: 1 })).toBe(true);
  });
});
