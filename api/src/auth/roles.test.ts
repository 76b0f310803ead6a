import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { claimAt, parseRoleMap, roleFromClaims, whoCan } from './roles.js';

describe('roles from the identity provider', () => {
  const map = parseRoleMap('mailroom-admins=admin, mailroom-senders=sender,mailroom-editors=editor,readers=viewer');

  it('reads ROLE_MAP, and refuses a bad pair, an unknown role or a value mapped twice', () => {
    expect([...map]).toEqual([
      ['mailroom-admins', 'admin'],
      ['mailroom-senders', 'sender'],
      ['mailroom-editors', 'editor'],
      ['readers', 'viewer'],
    ]);
    expect(() => parseRoleMap('admins')).toThrow(/value=role/);
    expect(() => parseRoleMap('admins=owner')).toThrow(/value=role/);
    expect(() => parseRoleMap('a=admin,a=viewer')).toThrow(/mapped twice/);
    expect(() => parseRoleMap(' , ')).toThrow(/no value=role/);
  });

  it('finds the claim at a dotted path, or under a name with dots', () => {
    const claims = { realm_access: { roles: ['x'] }, resource_access: { mailroom: { roles: ['y'] } }, 'https://example.org/roles': ['z'] };
    expect(claimAt(claims, 'realm_access.roles')).toEqual(['x']);
    expect(claimAt(claims, 'resource_access.mailroom.roles')).toEqual(['y']);
    expect(claimAt(claims, 'https://example.org/roles')).toEqual(['z']);
    expect(claimAt(claims, 'realm_access.roles.more')).toBeUndefined();
  });

  it('takes the highest mapped role; viewer when none maps; admin for everyone with no map', () => {
    expect(roleFromClaims({ groups: ['readers', 'mailroom-senders', 'other'] }, 'groups', map)).toBe('sender');
    expect(roleFromClaims({ groups: ['/mailroom-admins'] }, 'groups', map)).toBe('admin');
    expect(roleFromClaims({ groups: 'mailroom-editors' }, 'groups', map)).toBe('editor');
    expect(roleFromClaims({ groups: ['other'] }, 'groups', map)).toBe('viewer');
    expect(roleFromClaims({}, 'groups', map)).toBe('viewer');
    expect(roleFromClaims({ groups: [{ name: 'mailroom-admins' }] }, 'groups', map)).toBe('viewer');
    expect(roleFromClaims({}, 'groups', new Map())).toBe('admin');
  });

  it('says who can, in words', () => {
    expect(whoCan('viewer')).toBe('Viewers, editors, senders and admins');
    expect(whoCan('sender')).toBe('Senders and admins');
    expect(whoCan('admin')).toBe('Admins');
  });

  it('is configured by OIDC_ROLES_CLAIM and ROLE_MAP, checked at start', () => {
    const base = { NODE_ENV: 'test' };
    expect(loadConfig(base).roles).toMatchObject({ claim: 'roles' });
    expect(loadConfig(base).roles.map.size).toBe(0);
    const set = loadConfig({ ...base, OIDC_ROLES_CLAIM: 'resource_access.mailroom.roles', ROLE_MAP: 'a=admin' });
    expect(set.roles.claim).toBe('resource_access.mailroom.roles');
    expect(set.roles.map.get('a')).toBe('admin');
    expect(() => loadConfig({ ...base, ROLE_MAP: 'a=owner' })).toThrow(/ROLE_MAP: "a=owner" is not value=role/);
    expect(() => loadConfig({ ...base, OIDC_ROLES_CLAIM: 'realm_access..roles' })).toThrow(/OIDC_ROLES_CLAIM/);
  });
});
