import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './returnTo';

const ORIGIN = 'http://app.test';

describe('the address a sign-in returns to', () => {
  it.each([
    ['/campaigns/reports/1?tab=click-performance', '/campaigns/reports/1?tab=click-performance'],
    ['/audiences/3/import', '/audiences/3/import'],
    ['/templates?page=2#top', '/templates?page=2#top'],
    ['/campaigns/../audiences', '/audiences'],
  ])('keeps %s, an address of this app', (value, expected) => {
    expect(safeReturnPath(value, ORIGIN)).toBe(expected);
  });

  it.each([
    '//evil.test',
    '//evil.test/audiences',
    'https://evil.test/',
    'http://app.test/audiences',
    '/\\evil.test',
    '\\\\evil.test',
    '/\\/evil.test',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' /audiences',
    '/\taudiences',
    '/\n/evil.test',
    'data:text/html,hi',
    'evil.test',
    '',
    '/login',
    '/login/callback?code=1',
    `/${'a'.repeat(2001)}`,
  ])('refuses %j', (value) => {
    expect(safeReturnPath(value, ORIGIN)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeReturnPath(undefined, ORIGIN)).toBeNull();
    expect(safeReturnPath({ pathname: '/audiences' }, ORIGIN)).toBeNull();
  });
});
