import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAuth, mia, renderShell, stubQuotaFetch } from './test/render';

describe('routes when signed in', () => {
  it.each([
    ['/audiences', 'audiences remote at /audiences showing /audiences'],
    ['/audiences/12/import', 'audiences remote at /audiences showing /audiences/12/import'],
    ['/audiences/12/fields', 'audiences remote at /audiences showing /audiences/12/fields'],
    ['/templates/edit/3', 'templates remote at /templates showing /templates/edit/3'],
    ['/campaigns', 'campaigns remote at /campaigns showing /campaigns'],
    ['/campaigns/edit/5', 'campaigns remote at /campaigns showing /campaigns/edit/5'],
    ['/campaigns/reports/7', 'reports remote at /campaigns/reports showing /campaigns/reports/7'],
    // An extra area: the reports remote mounted at /activity, told so by its basePath.
    ['/activity', 'reports remote at /activity showing /activity'],
    // The audiences remote mounted at /people (issue 24).
    ['/people', 'audiences remote at /people showing /people'],
    ['/audiences/suppressions', 'audiences remote at /audiences showing /audiences/suppressions'],
  ])('%s goes to the right remote', async (path, text) => {
    stubQuotaFetch();
    renderShell({ path, auth: fakeAuth(mia) });
    expect((await screen.findByTestId('remote')).textContent).toBe(text);
  });

  it.each(['/', '/login', '/nowhere', '/campaignsx'])('%s redirects to /audiences', async (path) => {
    stubQuotaFetch();
    const view = renderShell({ path, auth: fakeAuth(mia) });
    await screen.findByTestId('remote');
    expect(view.location()).toBe('/audiences');
  });

  it('highlights the drawer entry of the current path', async () => {
    stubQuotaFetch();
    renderShell({ path: '/campaigns/reports/7', auth: fakeAuth(mia) });
    const campaigns = await screen.findByRole('link', { name: 'Campaigns' });
    await waitFor(() => expect(campaigns.getAttribute('aria-current')).toBe('page'));
    expect(screen.getByRole('link', { name: 'Audiences' }).getAttribute('aria-current')).not.toBe('page');
  });
});

describe('the drawer', () => {
  it('lists Suppressions under Audiences and Activity last, and highlights the longest entry that fits', async () => {
    stubQuotaFetch();
    renderShell({ path: '/audiences/suppressions', auth: fakeAuth(mia) });
    const suppressions = await screen.findByRole('link', { name: 'Suppressions' });
    expect(suppressions.getAttribute('href')).toBe('/audiences/suppressions');
    await waitFor(() => expect(suppressions.getAttribute('aria-current')).toBe('page'));
    expect(screen.getByRole('link', { name: 'Audiences' }).getAttribute('aria-current')).not.toBe('page');
    const names = screen.getAllByRole('link').map((link) => link.textContent);
    expect(names.filter((name) => ['Audiences', 'Suppressions', 'Templates', 'Campaigns', 'Activity'].includes(name ?? ''))).toEqual([
      'Audiences',
      'Suppressions',
      'Templates',
      'Campaigns',
      'Activity',
    ]);
    expect(screen.getByRole('link', { name: 'Activity' }).getAttribute('href')).toBe('/activity');
    expect(screen.getByRole('link', { name: 'People' }).getAttribute('href')).toBe('/people');
  });
});

describe('the drawer on a narrow screen', () => {
  afterEach(() => {
    window.innerWidth = 1024;
  });

  it('opens as a modal dialog with the navigation landmark inside it, never aria-modal on the landmark', async () => {
    window.innerWidth = 390;
    stubQuotaFetch();
    renderShell({ path: '/audiences', auth: fakeAuth(mia) });
    fireEvent.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Navigation menu' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const nav = within(dialog).getByRole('navigation', { name: 'Main navigation' });
    expect(nav.hasAttribute('aria-modal')).toBe(false);
    expect(within(nav).getByRole('link', { name: 'Templates' })).toBeTruthy();
  });

  it('is the landmark itself on a wide screen, not a dialog', async () => {
    stubQuotaFetch();
    renderShell({ path: '/audiences', auth: fakeAuth(mia) });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(nav.hasAttribute('aria-modal')).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('routes when signed out', () => {
  it.each(['/audiences', '/campaigns/reports/7', '/', '/login'])('%s shows /login', async (path) => {
    const view = renderShell({ path, auth: fakeAuth(null) });
    expect(await screen.findByRole('button', { name: 'Sign In With Example ID' })).toBeTruthy();
    expect(view.location()).toBe('/login');
    expect(screen.queryByTestId('remote')).toBeNull();
  });
});
