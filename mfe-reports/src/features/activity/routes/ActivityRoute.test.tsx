import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityEntry } from '@mailroom/api-client';
import { createFakeFetch, json, type RecordedRequest } from '@mailroom/mf-contract/fake-api';
import { renderRemote } from '@mailroom/mf-contract/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../../../App';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id,
  createdAt: new Date(Date.UTC(2024, 3, 2, 9, id)).toISOString(),
  memberEmail: 'mia@example.org',
  kind: 'create',
  objectType: 'audience',
  objectId: 100 + id,
  objectName: `Audience ${id}`,
  details: {},
  ...overrides,
});

/** A log of `count` entries, newest first, paged by keyset the way the server pages it (filters on member and kind). */
function fakeLog(log: ActivityEntry[]) {
  const api = createFakeFetch(({ path, query }: RecordedRequest) => {
    if (path !== '/api/activity') return json(404, { message: 'no fake' });
    const matching = log.filter(
      (e) => (!query.get('member') || e.memberEmail === query.get('member')) && (!query.get('kind') || e.kind === query.get('kind')),
    );
    const limit = Number(query.get('limit'));
    const before = query.get('before');
    const start = before
      ? matching.findIndex((e) => e.id === Number(before)) + 1
      : query.get('oldest')
        ? Math.max(0, matching.length - limit)
        : 0;
    const items = matching.slice(start, start + limit);
    return json(200, {
      items,
      older: start + limit < matching.length ? items.at(-1)!.id : null,
      newer: start > 0 ? items[0]!.id : null,
    });
  });
  vi.stubGlobal('fetch', api.fetch);
  return api;
}

const render = (url = '/activity') => renderRemote(App, { basePath: '/activity', url, notify: vi.fn() });

describe('Activity', () => {
  it('lists the log newest first with who, what and the object', async () => {
    fakeLog([
      entry(3, { kind: 'rename', details: { from: 'Old name' } }),
      entry(2, { kind: 'export', memberEmail: 'otto@example.org' }),
      entry(1),
    ]);
    render();
    const table = await screen.findByRole('table', { name: 'Activity' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Renamed')).toBeTruthy();
    expect(within(rows[0]!).getByText('from: Old name')).toBeTruthy();
    expect(within(rows[1]!).getByText('otto@example.org')).toBeTruthy();
    expect(within(rows[1]!).getByText('Exported')).toBeTruthy();
    expect(within(rows[2]!).getByText('Audience “Audience 1” #101')).toBeTruthy();
  });

  it('pages older and back to the newest by keyset', async () => {
    const log = Array.from({ length: 30 }, (_, i) => entry(30 - i));
    const api = fakeLog(log);
    const view = render();
    await screen.findByText('Audience “Audience 30” #130');
    expect((screen.getByRole('button', { name: 'Newer page' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Older page' }));
    await screen.findByText('Audience “Audience 5” #105');
    expect(view.location()?.search).toBe('?before=6');
    expect(api.calls('GET', '/api/activity').at(-1)!.query.get('before')).toBe('6');
    expect((screen.getByRole('button', { name: 'Older page' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Newest page' }));
    await screen.findByText('Audience “Audience 30” #130');
  });

  it('filters by member and action, and says when nothing matches', async () => {
    const api = fakeLog([entry(2, { kind: 'export', memberEmail: 'otto@example.org' }), entry(1)]);
    render();
    await screen.findByRole('table', { name: 'Activity' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Member' }), 'otto@example.org');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'export');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Activity' })).getAllByRole('row')).toHaveLength(2));
    const last = api.calls('GET', '/api/activity').at(-1)!.query;
    expect([last.get('member'), last.get('kind')]).toEqual(['otto@example.org', 'export']);

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'delete');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('No activity matches these filters')).toBeTruthy();
  });

  it('says so when the log is empty', async () => {
    fakeLog([]);
    render();
    expect(await screen.findByText('No activity yet')).toBeTruthy();
  });
});
