import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityEntry, ActivityKind } from '@mailroom/api-client';
import { memberTimeZone } from '@mailroom/ui';
import { createFakeFetch, json, type RecordedRequest } from '@mailroom/mf-contract/fake-api';
import { renderRemote } from '@mailroom/mf-contract/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../../../App';
import { KIND_LABELS } from '../components/labels';
import { activitySentence } from '../components/sentences';

// A zone other than UTC, so that a time shown in UTC fails; Node reads TZ again when it changes.
process.env.TZ = 'Asia/Tokyo';

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
  objectExists: true,
  campaignStatus: null,
  ...overrides,
});

/** A log of `count` entries, newest first, paged by keyset the way the server pages it (filters on member and kind). */
function fakeLog(log: ActivityEntry[]) {
  const api = createFakeFetch(({ path, query }: RecordedRequest) => {
    if (path !== '/api/activity') return json(404, { message: 'no fake' });
    const matching = log.filter(
      (e) =>
        (!query.get('member') || e.memberEmail.includes(query.get('member')!.toLowerCase())) &&
        (!query.get('kind') || e.kind === query.get('kind')),
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
    expect(within(rows[0]!).getByText('Renamed from “Old name”.')).toBeTruthy();
    expect(within(rows[1]!).getByText('otto@example.org')).toBeTruthy();
    expect(within(rows[1]!).getByText('Exported')).toBeTruthy();
    expect(rows[2]!.textContent).toContain('Audience “Audience 1” #101');
  });

  it('pages older and back to the newest by keyset', async () => {
    const log = Array.from({ length: 30 }, (_, i) => entry(30 - i));
    const api = fakeLog(log);
    const view = render();
    await screen.findByRole('link', { name: '“Audience 30”' });
    expect((screen.getByRole('button', { name: 'Newer page' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Older page' }));
    await screen.findByRole('link', { name: '“Audience 5”' });
    expect(view.location()?.search).toBe('?before=6');
    expect(api.calls('GET', '/api/activity').at(-1)!.query.get('before')).toBe('6');
    expect((screen.getByRole('button', { name: 'Older page' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Newest page' }));
    await screen.findByRole('link', { name: '“Audience 30”' });
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

  it('filters by a part of the member address', async () => {
    const api = fakeLog([entry(2, { memberEmail: 'otto@example.org' }), entry(1, { memberEmail: 'mia@example.org' })]);
    render();
    await screen.findByRole('table', { name: 'Activity' });
    await userEvent.type(screen.getByRole('textbox', { name: /Member/ }), 'MIA');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Activity' })).getAllByRole('row')).toHaveLength(2));
    expect(api.calls('GET', '/api/activity').at(-1)!.query.get('member')).toBe('MIA');
    expect(screen.getByText('mia@example.org')).toBeTruthy();
  });

  it('names objects whole and links each to where it is now; a deleted one is named, not linked', async () => {
    const long = 'A campaign whose name is much longer than thirty characters';
    fakeLog([
      entry(6, { objectType: 'campaign', objectId: 5, objectName: long, campaignStatus: 'DRAFT' }),
      entry(5, { objectType: 'campaign', objectId: 6, objectName: 'Sent one', campaignStatus: 'SENT' }),
      entry(4, { objectType: 'campaign', objectId: 8, objectName: 'Waiting', campaignStatus: 'SCHEDULED' }),
      entry(3, { objectType: 'template', objectId: 3, objectName: 'Letter' }),
      entry(2, { objectType: 'audience', objectId: 7, objectName: 'Neighbours' }),
      entry(1, { kind: 'delete', objectType: 'audience', objectId: 9, objectName: 'Gone', objectExists: false }),
    ]);
    render();
    const href = async (name: string) => (await screen.findByRole('link', { name: `“${name}”` })).getAttribute('href');
    expect(await href(long)).toBe('/campaigns/edit/5');
    expect(await href('Sent one')).toBe('/campaigns/reports/6');
    expect(await href('Waiting')).toBe('/campaigns/edit/8');
    expect(await href('Letter')).toBe('/templates/edit/3');
    expect(await href('Neighbours')).toBe('/audiences/7');
    expect(screen.queryByRole('link', { name: '“Gone”' })).toBeNull();
    const rows = within(screen.getByRole('table', { name: 'Activity' })).getAllByRole('row');
    expect(rows.at(-1)!.textContent).toContain('Audience “Gone” #9 (deleted)');
  });

  it('writes every kind of entry as a sentence, the codes in words and times in the member’s time zone', async () => {
    const at = '2024-04-02T09:00:00.000Z';
    const log = [
      entry(22, {
        kind: 'erase',
        objectType: 'person',
        objectId: null,
        objectName: `erased:${'f'.repeat(64)}@example.net`,
        details: { contacts: 2, mails: 1200 },
      }),
      entry(21, { kind: 'export', objectType: 'person', objectId: null, objectName: 'ann@example.net', details: { what: 'person' } }),
      entry(20, { kind: 'suppression-remove', objectType: 'suppression', objectId: null, details: { reason: 'MEMBER' } }),
      entry(19, { kind: 'follow-up', objectType: 'campaign', details: { of: 1, recipients: 'NOT_OPENED' } }),
      entry(18, { kind: 'schedule', objectType: 'campaign', details: { at } }),
      entry(17, { kind: 'send', objectType: 'campaign', details: { scheduledAt: at, jobs: 1200 } }),
      entry(16, { kind: 'edit', objectType: 'campaign', details: { fields: ['subject', 'fromName'] } }),
      entry(15, { kind: 'unsubscribe', objectType: 'campaign', memberEmail: 'ann@example.com' }),
      entry(14, { kind: 'export', objectType: 'campaign', details: { what: 'email performance', opened: false, sendStatus: 'FAILED' } }),
      entry(13, { kind: 'import-finished', details: { contacts: 3, contactsWithErrors: 1 } }),
    ];
    fakeLog(log);
    render();
    const table = await screen.findByRole('table', { name: 'Activity' });
    const details = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.lastElementChild!.textContent);
    // The time as the member's zone reads it, in the spec's format, the zone named (Asia/Tokyo is UTC+9).
    expect(memberTimeZone()).toBe('Asia/Tokyo');
    expect(details).toEqual([
      'Erased the person: 2 contacts deleted, 1,200 emails kept for the reports under a hash of the address.',
      'Downloaded everything held about the person as JSON.',
      'Removed the address; it was suppressed for: added by a member.',
      'A follow-up of campaign #1, to its recipients who did not open it.',
      'To be sent on 2024-04-02 18:00 PM (Asia/Tokyo).',
      'Queued 1,200 emails at the scheduled time, 2024-04-02 18:00 PM (Asia/Tokyo).',
      'Changed the subject and the sender name.',
      'A recipient unsubscribed from this campaign’s email; the address is suppressed.',
      'Downloaded the email performance workbook, filtered to: send status Failed and not opened.',
      'Imported 3 contacts, 1 of them with errors.',
    ]);
    expect(within(table).getByText('ann@example.com (recipient)')).toBeTruthy();
  });

  it('has a sentence for every kind, with no raw key or code in it', async () => {
    const kinds = Object.keys(KIND_LABELS) as ActivityKind[];
    const details = { from: 'Old', jobs: 2, at: '2024-04-02T09:00:00.000Z', reason: 'HARD_BOUNCE', recipients: 'NOT_CLICKED', of: 4 };
    for (const kind of kinds) {
      const sentence = activitySentence({ kind, objectType: 'campaign', details });
      expect(sentence, kind).toMatch(/^[A-Z].*\.$/);
      // NOT_SENT is the spec's own name of those contacts (its button says so too).
      expect(sentence.replace('NOT_SENT', ''), kind).not.toMatch(
        /\b(from|jobs|at|reason|recipients|of): |[A-Z]{2,}_[A-Z]+|\d{4}-\d\d-\d\dT/,
      );
    }
  });

  it("says what send approval did: the request and its time, the approval, a decline's reason, a withdrawal by an edit", () => {
    const say = (kind: ActivityKind, details: Record<string, unknown>) => activitySentence({ kind, objectType: 'campaign', details });
    expect(say('request-approval', {})).toBe('Asked for approval to send.');
    expect(say('request-approval', { at: '2024-04-02T09:00:00.000Z' })).toMatch(/^Asked for approval to send on .*2024.*\.$/);
    expect(say('approve', { requestedBy: 'mia@example.org' })).toBe('Approved the request of mia@example.org.');
    expect(say('decline', { requestedBy: 'mia@example.org', declineReason: 'Wrong audience' })).toBe(
      'Declined the request: “Wrong audience”.',
    );
    expect(say('withdraw-approval', { by: 'edit' })).toBe('The campaign was edited: its approval request was withdrawn.');
    expect(say('withdraw-approval', {})).toBe('Withdrew the approval request.');
  });

  it('says what a field change did: added with its type, renamed, retyped, removed with the templates that used it', () => {
    const say = (kind: ActivityKind, details: Record<string, unknown>) => activitySentence({ kind, objectType: 'audience', details });
    expect(say('field-add', { key: 'plan', label: 'Plan', type: 'YES_NO' })).toBe('Added the field “Plan” ({{plan}}), yes / no.');
    expect(
      say('field-change', {
        key: 'plan',
        changed: ['label', 'type', 'required'],
        from: 'Plan',
        label: 'Tier',
        fromType: 'TEXT',
        type: 'CHOICE',
      }),
    ).toBe(
      'Changed the field {{plan}}: renamed it from “Plan” to “Tier”, changed its type from text to one of a list and changed whether it is required.',
    );
    expect(say('field-remove', { key: 'plan', label: 'Plan', templates: 2 })).toBe(
      'Removed the field “Plan” ({{plan}}), used by 2 templates; its values were cleared from the contacts.',
    );
  });

  it("says what a sign-up form's change did: made, renamed, a new consent wording's version, deleted", () => {
    const say = (kind: ActivityKind, details: Record<string, unknown>) => activitySentence({ kind, objectType: 'audience', details });
    expect(say('form-create', { formId: 3, name: 'Tree news' })).toBe('Created the sign-up form “Tree news”.');
    expect(
      say('form-change', { formId: 3, name: 'Tree letters', from: 'Tree news', changed: ['name', 'consentWording'], consentVersion: 2 }),
    ).toBe('Changed the sign-up form “Tree letters”: renamed it from “Tree news” and changed its consent wording (now version 2).');
    expect(say('form-change', { formId: 3, name: 'Tree letters', changed: [] })).toBe('Changed the sign-up form “Tree letters”.');
    expect(say('form-delete', { formId: 3 })).toBe('Deleted a sign-up form.');
  });

  it("says what an admin's API key and webhook changes did, naming scopes and events", () => {
    const say = (kind: ActivityKind, details: Record<string, unknown>) => activitySentence({ kind, objectType: 'webhook', details });
    expect(say('api-key-create', { scopes: ['viewer'] })).toBe('Created the API key, allowed what viewer may do.');
    expect(say('api-key-revoke', {})).toBe('Revoked the API key: it is refused from now on.');
    expect(say('webhook-create', { events: ['campaign.sent', 'contact.bounced'] })).toBe(
      'Added the webhook endpoint, for campaign.sent and contact.bounced.',
    );
    expect(say('webhook-change', { events: ['import.finished'], enabled: false })).toBe(
      'Changed the webhook endpoint, for import.finished. It is turned off.',
    );
  });

  it('says so when the log is empty', async () => {
    fakeLog([]);
    render();
    expect(await screen.findByText('No activity yet')).toBeTruthy();
  });
});
