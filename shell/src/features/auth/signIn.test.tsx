import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeAuth, mia, renderShell, stubQuotaFetch } from '../../test/render';
import { emailDomain, isOrgMember } from './membership';

describe('organisation membership', () => {
  it('accepts exactly the organisation domain after the last @, in any case', () => {
    expect(isOrgMember('mia@example.org', 'example.org')).toBe(true);
    expect(isOrgMember('Mia@EXAMPLE.org', 'example.org')).toBe(true);
    expect(isOrgMember('odd"@"name@example.org', 'example.org')).toBe(true);
  });

  it('refuses look-alike and other domains', () => {
    expect(isOrgMember('a@evil-example.org', 'example.org')).toBe(false);
    expect(isOrgMember('a@mail.example.org', 'example.org')).toBe(false);
    expect(isOrgMember('a@example.org.evil.test', 'example.org')).toBe(false);
    expect(isOrgMember('example.org', 'example.org')).toBe(false);
    expect(isOrgMember(undefined, 'example.org')).toBe(false);
    expect(emailDomain('a@b@Example.ORG')).toBe('example.org');
  });
});

describe('sign-in on load', () => {
  it('shows a spinner while the profile loads', () => {
    stubQuotaFetch();
    renderShell({ auth: fakeAuth('pending') });
    expect(screen.getByText('Loading your profile...')).toBeTruthy();
  });

  it('signs a member in', async () => {
    stubQuotaFetch();
    renderShell({ path: '/audiences', auth: fakeAuth(mia) });
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(await screen.findByTestId('remote')).toBeTruthy();
  });

  it('refuses an outsider: error toast, local session dropped, stays signed out', async () => {
    stubQuotaFetch();
    const auth = fakeAuth({ firstName: 'Otto', lastName: 'Outsider', email: 'a@evil-example.org' });
    const view = renderShell({ path: '/audiences', auth });
    expect(await screen.findByText('Only members of Example can log in.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In With Example ID' })).toBeTruthy();
    expect(auth.forget).toHaveBeenCalledTimes(1);
    expect(view.location()).toBe('/login');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });

  it('starts the provider login from the login button', async () => {
    const auth = fakeAuth(null);
    renderShell({ path: '/login', auth });
    (await screen.findByRole('button', { name: 'Sign In With Example ID' })).click();
    await waitFor(() => expect(auth.signIn).toHaveBeenCalled());
  });

  it('goes back where a deep link pointed after the provider login', async () => {
    const auth = fakeAuth(null);
    renderShell({ path: '/campaigns/edit/4', auth });
    (await screen.findByRole('button', { name: 'Sign In With Example ID' })).click();
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('/campaigns/edit/4'));
  });
});
