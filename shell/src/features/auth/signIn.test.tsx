import { act, screen, waitFor } from '@testing-library/react';
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

  it('lands on the deep link, query included, when the provider sends the browser back', async () => {
    stubQuotaFetch();
    const auth = fakeAuth(mia);
    auth.restoreSession.mockResolvedValue({ profile: mia, returnTo: '/campaigns/reports/1?tab=click-performance' } as never);
    const view = renderShell({ path: '/login/callback?code=1&state=2', auth });
    await screen.findByTestId('remote');
    await waitFor(() => expect(view.address()).toBe('/campaigns/reports/1?tab=click-performance'));
    expect(screen.getByTestId('remote').textContent).toBe('reports remote at /campaigns/reports showing /campaigns/reports/1');
  });

  it('never follows a return address that leaves the app', async () => {
    stubQuotaFetch();
    const auth = fakeAuth(mia);
    auth.restoreSession.mockResolvedValue({ profile: mia, returnTo: '//evil.test/audiences' } as never);
    const view = renderShell({ path: '/login/callback?code=1&state=2', auth });
    await screen.findByTestId('remote');
    expect(view.address()).toBe('/audiences');

    const signedOut = fakeAuth(null);
    renderShell({ path: '/login', auth: signedOut });
    const buttons = await screen.findAllByRole('button', { name: 'Sign In With Example ID' });
    buttons.at(-1)!.click();
    await waitFor(() => expect(signedOut.signIn).toHaveBeenCalledWith(undefined));
  });

  it('a session ended elsewhere shows /login with a note', async () => {
    stubQuotaFetch();
    const auth = fakeAuth(mia);
    let endSession = () => {};
    auth.onSessionEnded.mockImplementation((listener) => {
      endSession = listener;
      return () => {};
    });
    const view = renderShell({ path: '/templates', auth });
    await screen.findByTestId('remote');
    act(() => endSession());
    expect(await screen.findByText('You have been signed out. Sign in again to continue.')).toBeTruthy();
    expect(view.location()).toBe('/login');
    expect(screen.queryByTestId('remote')).toBeNull();
  });
});
