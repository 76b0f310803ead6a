import { describe, expect, it } from 'vitest';
import { counted, plural } from './plural';

describe('plural', () => {
  it('takes the singular for one only, the plural for none, several and fractions', () => {
    expect(plural(1, 'contact')).toBe('contact');
    expect([0, 2, 1000, 1.5].map((n) => plural(n, 'contact'))).toEqual(['contacts', 'contacts', 'contacts', 'contacts']);
  });

  it('takes the plural it is given for irregular words and verbs', () => {
    expect([plural(1, 'is', 'are'), plural(3, 'is', 'are')]).toEqual(['is', 'are']);
    expect([plural(1, 'It', 'They'), plural(0, 'It', 'They')]).toEqual(['It', 'They']);
  });
});

describe('counted', () => {
  it('writes the number grouped, with its noun in the right form', () => {
    expect(counted(1, 'email')).toBe('1 email');
    expect(counted(0, 'email')).toBe('0 emails');
    expect(counted(1204, 'contact')).toBe('1,204 contacts');
    expect(counted(2, 'person', 'people')).toBe('2 people');
  });
});
