/**
 * The activity log through the whole API: every action that changes or takes out data writes exactly
 * one entry (member from the token, kind, object) and nothing when it fails; GET /api/activity pages
 * and filters; no route edits or deletes the log; the retention sweep removes only old entries.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { createTrackingTokens, type TrackingTokens } from '../../mail/tracking-tokens.js';
import { EDIT_COALESCE_SECONDS } from '../../services/activity/activity-service.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
const MEMBER = 'ada.actor@example.org';
let templateId: number;
let tracking: TrackingTokens;

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 100, max24HourSend: 10_000 });
  // No workers: dispatched jobs stay QUEUED, so each test sets the states it needs.
  t = await createTestApp({
    env: { SES_ENDPOINT: ses.endpoint, AUTHORIZED_SENDER_EMAILS: 'newsletter@example.org', UNCONFIRMED_RESEND_AFTER_MINUTES: '1' },
  });
  auth = await bearer({ email: MEMBER });
  tracking = createTrackingTokens(t.config.trackingSecret);
  templateId = await seedTemplate(t.db.pool, { name: 'Seeded template', html: '<p>Hello {{email}}</p>' });
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const as = <R extends request.Test>(test: R) => test.set('Authorization', auth);
const query = async <R>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows as R[];
const entries = async () => (await query<{ n: number }>('SELECT count(*)::int AS n FROM activity'))[0]!.n;
const newest = async () =>
  (
    await query<Record<string, unknown>>(
      'SELECT member_email, kind, object_type, object_id, object_name, details FROM activity ORDER BY id DESC LIMIT 1',
    )
  )[0]!;

async function audience(contacts = ['a@example.org', 'b@example.org', 'c@example.org']) {
  return seedAudience(t.db.pool, { name: 'Neighbours', headers: [], contacts: contacts.map((email) => ({ email })) });
}

/** A draft ready to send to a fresh audience. */
async function draft(name = 'Autumn news') {
  const target = await audience();
  const { rows } = await t.db.pool.query<{ id: string }>(
    `INSERT INTO campaigns (name, audience_id, template_id, from_name, from_email, subject)
     VALUES ($1, $2, $3, 'Example News', 'newsletter@example.org', 'News') RETURNING id`,
    [name, target.id, templateId],
  );
  return { id: Number(rows[0]!.id), target };
}

/** A campaign sent through the API (its jobs QUEUED), then set to `status` with its jobs in `jobStatus`. */
async function sent(status = 'SENT', jobStatus = 'SENT_SUCCESS') {
  const campaign = await draft();
  expect((await as(api().post(`/api/campaigns/${campaign.id}/send`))).status).toBe(202);
  await t.db.pool.query(`UPDATE campaign_jobs SET status = $2, claimed_at = now() - interval '2 hours' WHERE campaign_id = $1`, [
    campaign.id,
    jobStatus,
  ]);
  await t.db.pool.query('UPDATE campaigns SET status = $2 WHERE id = $1', [campaign.id, status]);
  const jobs = await query<{ id: string; contact_id: string }>(
    'SELECT id, contact_id FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id',
    [campaign.id],
  );
  return { ...campaign, jobIds: jobs.map((job) => Number(job.id)), contactIds: jobs.map((job) => Number(job.contact_id)) };
}

const MISSING = 987_654_321;

/** A recipient's one-click unsubscribe (RFC 8058) of the mail of `jobId`: no member token. */
const oneClick = (jobId: number) =>
  api()
    .post(`/unsubscribe/${tracking.unsubscribe(jobId)}`)
    .type('form')
    .send('List-Unsubscribe=One-Click');

/** A prepared call: made once the counting starts, so only the action itself is counted. */
type Call = () => request.Test;

interface Action {
  name: string;
  kind: string;
  objectType: string;
  /** Who the entry names, when not the signed-in member (a recipient's unsubscribe names the recipient). */
  actor?: string;
  /** Sets up what the action needs; the call, and the object id it must name (from the answer when created). */
  ok: () => Promise<{ call: Call; objectId: number | null | ((body: { id: number }) => number) }>;
  /** Sets up the same action so that it is refused (4xx); the call. */
  refused: () => Promise<Call>;
}

const post =
  (path: string, body?: object): Call =>
  () =>
    as(body ? api().post(path).send(body) : api().post(path));
const put =
  (path: string, body: object): Call =>
  () =>
    as(api().put(path).send(body));
const del =
  (path: string): Call =>
  () =>
    as(api().delete(path));
const created = (body: { id: number }) => body.id;
const testEmail = (fromEmail: string) => ({ emails: ['tester@example.org'], fromEmail, fromName: 'News', subject: 'Hi', templateId });
const importText: (id: number) => Call = (id) => () =>
  as(api().post(`/api/audiences/${id}/import/file?type=text`).field('file', 'email\nx@example.org\n'));

const ACTIONS: Action[] = [
  {
    name: 'create an audience',
    kind: 'create',
    objectType: 'audience',
    ok: async () => ({ call: post('/api/audiences', { name: 'Friends' }), objectId: created }),
    refused: async () => post('/api/audiences', { name: '   ' }),
  },
  {
    name: 'rename an audience',
    kind: 'rename',
    objectType: 'audience',
    ok: async () => {
      const { id } = await audience();
      return { call: put(`/api/audiences/${id}`, { name: 'Renamed' }), objectId: id };
    },
    refused: async () => put(`/api/audiences/${MISSING}`, { name: 'Renamed' }),
  },
  {
    name: 'delete an audience',
    kind: 'delete',
    objectType: 'audience',
    ok: async () => {
      const { id } = await audience();
      return { call: del(`/api/audiences/${id}`), objectId: id };
    },
    refused: async () => del(`/api/audiences/${MISSING}`),
  },
  {
    name: 'import contacts',
    kind: 'import',
    objectType: 'audience',
    ok: async () => {
      const { rows } = await t.db.pool.query<{ id: string }>(`INSERT INTO audiences (name) VALUES ('Empty') RETURNING id`);
      const id = Number(rows[0]!.id);
      return { call: importText(id), objectId: id };
    },
    // An audience that already has contacts takes no other import (409).
    refused: async () => importText((await audience()).id),
  },
  {
    name: 'export contacts',
    kind: 'export',
    objectType: 'audience',
    ok: async () => {
      const { id } = await audience();
      return { call: post(`/api/audiences/${id}/download`), objectId: id };
    },
    refused: async () => post(`/api/audiences/${MISSING}/download`),
  },
  {
    name: 'create a template',
    kind: 'create',
    objectType: 'template',
    ok: async () => ({ call: post('/api/templates', { name: 'Letter' }), objectId: created }),
    refused: async () => post('/api/templates', { name: '  ' }),
  },
  {
    name: 'copy a template',
    kind: 'create',
    objectType: 'template',
    ok: async () => ({ call: post(`/api/templates/${templateId}/replicate`), objectId: created }),
    refused: async () => post(`/api/templates/${MISSING}/replicate`),
  },
  {
    name: 'rename a template',
    kind: 'rename',
    objectType: 'template',
    ok: async () => {
      const id = await seedTemplate(t.db.pool, { name: 'Old', html: '<p>x</p>' });
      return { call: put(`/api/templates/${id}`, { name: 'New' }), objectId: id };
    },
    refused: async () => put(`/api/templates/${MISSING}`, { name: 'New' }),
  },
  {
    name: 'delete a template',
    kind: 'delete',
    objectType: 'template',
    ok: async () => {
      const id = await seedTemplate(t.db.pool, { name: 'Gone', html: '<p>x</p>' });
      return { call: del(`/api/templates/${id}`), objectId: id };
    },
    refused: async () => del(`/api/templates/${MISSING}`),
  },
  {
    name: 'create a campaign',
    kind: 'create',
    objectType: 'campaign',
    ok: async () => ({ call: post('/api/campaigns', { name: 'Spring', templateId }), objectId: created }),
    refused: async () => post('/api/campaigns', { name: 'Spring', templateId: MISSING }),
  },
  {
    name: 'copy a campaign',
    kind: 'create',
    objectType: 'campaign',
    ok: async () => ({ call: post(`/api/campaigns/${(await draft()).id}/replicate`), objectId: created }),
    refused: async () => post(`/api/campaigns/${MISSING}/replicate`),
  },
  {
    name: 'rename a campaign',
    kind: 'rename',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent();
      return { call: put(`/api/campaigns/${id}`, { name: 'Winter' }), objectId: id };
    },
    // A sent campaign is renamed, never edited (409), even with a new name.
    refused: async () => put(`/api/campaigns/${(await sent()).id}`, { name: 'Winter', subject: 'Edited' }),
  },
  {
    name: 'delete a campaign',
    kind: 'delete',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await draft();
      return { call: del(`/api/campaigns/${id}`), objectId: id };
    },
    refused: async () => del(`/api/campaigns/${(await sent('SENDING', 'QUEUED')).id}`),
  },
  {
    name: 'send a campaign',
    kind: 'send',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await draft();
      return { call: post(`/api/campaigns/${id}/send`), objectId: id };
    },
    refused: async () => post(`/api/campaigns/${(await sent()).id}/send`),
  },
  {
    name: 'continue a campaign',
    kind: 'continue',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent('ERROR', 'QUEUED');
      return { call: post(`/api/campaigns/${id}/continue`), objectId: id };
    },
    refused: async () => post(`/api/campaigns/${(await sent()).id}/continue`),
  },
  {
    name: 'retry all failed',
    kind: 'retry-all-failed',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent('SENT', 'FAILED');
      return { call: post(`/api/reports/${id}/retry-all-failed-jobs`), objectId: id };
    },
    refused: async () => post(`/api/reports/${(await draft()).id}/retry-all-failed-jobs`),
  },
  {
    name: 'retry one job',
    kind: 'retry-job',
    objectType: 'campaign',
    ok: async () => {
      const { id, jobIds } = await sent('SENT', 'FAILED');
      return { call: post(`/api/reports/${id}/retry-job/${jobIds[0]}`), objectId: id };
    },
    refused: async () => {
      const { id, jobIds } = await sent();
      return post(`/api/reports/${id}/retry-job/${jobIds[0]}`);
    },
  },
  {
    name: 'resend unconfirmed',
    kind: 'resend-unconfirmed',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent('SENT', 'UNKNOWN');
      return { call: post(`/api/reports/${id}/resend-unconfirmed`), objectId: id };
    },
    refused: async () => post(`/api/reports/${(await sent('ERROR', 'UNKNOWN')).id}/resend-unconfirmed`),
  },
  {
    name: 'send to NOT_SENT',
    kind: 'send-to-not-sent',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent();
      return { call: post(`/api/reports/${id}/send-to-not-sent`), objectId: id };
    },
    refused: async () => post(`/api/reports/${(await draft()).id}/send-to-not-sent`),
  },
  {
    name: 'send to a contact',
    kind: 'send-to-contact',
    objectType: 'campaign',
    ok: async () => {
      const { id, jobIds, contactIds } = await sent();
      // Without its job, the contact is one this campaign has not sent to.
      await t.db.pool.query('DELETE FROM campaign_jobs WHERE id = $1', [jobIds[0]]);
      return { call: post(`/api/reports/${id}/send-to-contact/${contactIds[0]}`), objectId: id };
    },
    refused: async () => {
      const { id, contactIds } = await sent();
      return post(`/api/reports/${id}/send-to-contact/${contactIds[0]}`);
    },
  },
  {
    name: 'export a report',
    kind: 'export',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent();
      return { call: () => as(api().get(`/api/reports/${id}/export-email-performance?opened=false`)), objectId: id };
    },
    refused: async () => () => as(api().get(`/api/reports/${MISSING}/export-email-performance`)),
  },
  {
    name: 'send a test email',
    kind: 'test-send',
    objectType: 'template',
    ok: async () => ({ call: post('/api/campaigns/send-test-email', testEmail('newsletter@example.org')), objectId: templateId }),
    refused: async () => post('/api/campaigns/send-test-email', testEmail('intruder@example.org')),
  },
  {
    name: 'schedule a campaign',
    kind: 'schedule',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await draft();
      return { call: post(`/api/campaigns/${id}/schedule`, { at: new Date(Date.now() + 3_600_000).toISOString() }), objectId: id };
    },
    refused: async () => {
      const { id } = await draft();
      return post(`/api/campaigns/${id}/schedule`, { at: new Date(Date.now() - 60_000).toISOString() });
    },
  },
  {
    name: 'unschedule a campaign',
    kind: 'unschedule',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await draft();
      const at = new Date(Date.now() + 3_600_000).toISOString();
      expect((await post(`/api/campaigns/${id}/schedule`, { at })()).status).toBe(200);
      return { call: post(`/api/campaigns/${id}/unschedule`), objectId: id };
    },
    refused: async () => {
      const { id } = await draft();
      return post(`/api/campaigns/${id}/unschedule`);
    },
  },
  {
    name: 'follow up a sent campaign',
    kind: 'follow-up',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await sent();
      return { call: post(`/api/campaigns/${id}/follow-up`, { recipients: 'NOT_OPENED' }), objectId: created };
    },
    refused: async () => {
      const { id } = await draft();
      return post(`/api/campaigns/${id}/follow-up`, { recipients: 'NOT_OPENED' });
    },
  },
  {
    name: 'add suppressions',
    kind: 'suppression-add',
    objectType: 'suppression',
    ok: async () => ({ call: post('/api/suppressions', { text: `email\nkept.away.${Date.now()}@example.org\n` }), objectId: null }),
    refused: async () => post('/api/suppressions', {}),
  },
  {
    name: 'remove a suppression',
    kind: 'suppression-remove',
    objectType: 'suppression',
    ok: async () => {
      const [row] = await query<{ id: string }>(`INSERT INTO suppressions (email_lower, reason) VALUES ($1, 'HARD_BOUNCE') RETURNING id`, [
        `bounced.${Date.now()}@example.org`,
      ]);
      return { call: del(`/api/suppressions/${row!.id}`), objectId: null };
    },
    refused: async () => {
      const [row] = await query<{ id: string }>(`INSERT INTO suppressions (email_lower, reason) VALUES ($1, 'COMPLAINT') RETURNING id`, [
        `complained.${Date.now()}@example.org`,
      ]);
      // A complaint's removal needs its second confirmation.
      return del(`/api/suppressions/${row!.id}`);
    },
  },
  {
    name: 'export the suppressions',
    kind: 'export',
    objectType: 'suppression',
    ok: async () => ({ call: () => as(api().get('/api/suppressions/export')), objectId: null }),
    refused: async () => () => as(api().get('/api/suppressions/export?reason=NOT_A_REASON')),
  },
  {
    name: 'edit a template',
    kind: 'edit',
    objectType: 'template',
    ok: async () => {
      const id = await seedTemplate(t.db.pool, { name: 'Letter', html: '<p>x</p>' });
      return { call: put(`/api/templates/${id}`, { name: 'Letter', design: { body: {} }, html: '<p>y</p>' }), objectId: id };
    },
    refused: async () => put(`/api/templates/${MISSING}`, { name: 'Letter', html: '<p>y</p>' }),
  },
  {
    name: 'edit a draft campaign',
    kind: 'edit',
    objectType: 'campaign',
    ok: async () => {
      const { id } = await draft();
      return { call: put(`/api/campaigns/${id}`, { name: 'Autumn news', subject: 'Autumn is here' }), objectId: id };
    },
    // A sent campaign's content is not edited (409).
    refused: async () => put(`/api/campaigns/${(await sent()).id}`, { name: 'Autumn news', subject: 'Autumn is here' }),
  },
  {
    name: "a recipient's unsubscribe",
    kind: 'unsubscribe',
    objectType: 'campaign',
    actor: 'leaving@example.org',
    ok: async () => {
      const { id, jobIds } = await sent();
      // An address of its own, so that the audiences of the other tests stay unsuppressed.
      await t.db.pool.query(`UPDATE campaign_jobs SET email = 'Leaving@example.org' WHERE id = $1`, [jobIds[0]]);
      return { call: () => oneClick(jobIds[0]!), objectId: id };
    },
    refused: async () => () => oneClick(MISSING),
  },
];

describe('every action writes one entry, and nothing when it fails', () => {
  it.each(ACTIONS.map((action) => [action.name, action] as const))('%s', async (_name, action) => {
    const { call, objectId } = await action.ok();
    const before = await entries();
    const res = await call();
    expect(res.status).toBeLessThan(300);
    expect(await entries()).toBe(before + 1);
    const row = await newest();
    expect(row).toMatchObject({ member_email: action.actor ?? MEMBER, kind: action.kind, object_type: action.objectType });
    if (objectId === null) expect(row.object_id).toBeNull();
    else expect(Number(row.object_id)).toBe(typeof objectId === 'number' ? objectId : objectId(res.body as { id: number }));

    const refusedCall = await action.refused();
    const counted = await entries();
    const refused = await refusedCall();
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await entries()).toBe(counted);
  });

  it('records what a rename changed and how many emails a send queued', async () => {
    const { id } = await audience();
    await put(`/api/audiences/${id}`, { name: 'Far neighbours' })();
    expect(await newest()).toMatchObject({ object_name: 'Far neighbours', details: { from: 'Neighbours' } });
    const campaign = await draft('Counted');
    await post(`/api/campaigns/${campaign.id}/send`)();
    expect(await newest()).toMatchObject({ kind: 'send', object_name: 'Counted', details: { jobs: 3 } });
  });
});

describe('edits and unsubscribes', () => {
  const templateSave = (id: number, html: string) => put(`/api/templates/${id}`, { name: 'Autosaved', design: { body: {} }, html });
  const edits = async (id: number) =>
    query<{ member_email: string }>(
      `SELECT member_email FROM activity WHERE kind = 'edit' AND object_type = 'template' AND object_id = $1`,
      [id],
    );

  it("coalesces a member's autosaves of one template within the window, but not another member's or a later one", async () => {
    const id = await seedTemplate(t.db.pool, { name: 'Autosaved', html: '<p>0</p>' });
    for (let i = 1; i <= 4; i++) expect((await templateSave(id, `<p>${i}</p>`)()).status).toBe(200);
    expect(await edits(id)).toHaveLength(1);

    // Saved at the same moment by two tabs: the row lock lets one record, the other sees its entry.
    const racing = await seedTemplate(t.db.pool, { name: 'Autosaved', html: '<p>0</p>' });
    await Promise.all([templateSave(racing, '<p>a</p>')(), templateSave(racing, '<p>b</p>')(), templateSave(racing, '<p>c</p>')()]);
    expect(await edits(racing)).toHaveLength(1);

    const other = await bearer({ email: 'otto.other@example.org' });
    await api().put(`/api/templates/${id}`).set('Authorization', other).send({ name: 'Autosaved', html: '<p>o</p>' });
    expect((await edits(id)).map((row) => row.member_email).sort()).toEqual([MEMBER, 'otto.other@example.org']);

    // An edit of the window's age no longer counts: the next save is an entry of its own.
    const later = await seedTemplate(t.db.pool, { name: 'Autosaved', html: '<p>0</p>' });
    await t.db.pool.query(
      `INSERT INTO activity (created_at, member_email, kind, object_type, object_id, object_name)
       VALUES (now() - $2 * interval '1 second', $3, 'edit', 'template', $1, 'Autosaved')`,
      [later, EDIT_COALESCE_SECONDS + 1, MEMBER],
    );
    await templateSave(later, '<p>1</p>')();
    expect(await edits(later)).toHaveLength(2);
  });

  it('a rename alone is no edit, and a save that renames and edits records both', async () => {
    const id = await seedTemplate(t.db.pool, { name: 'Plain', html: '<p>0</p>' });
    const before = await entries();
    await put(`/api/templates/${id}`, { name: 'Plainer' })();
    expect(await newest()).toMatchObject({ kind: 'rename', object_id: id });
    await put(`/api/templates/${id}`, { name: 'Plainest', html: '<p>1</p>' })();
    expect(await entries()).toBe(before + 3);
  });

  it("records which of a campaign's fields a save changed, and nothing for a save that changed none", async () => {
    const { id, target } = await draft('Fields');
    const other = await audience();
    await put(`/api/campaigns/${id}`, { name: 'Fields', subject: 'New subject', fromName: 'Example News', audienceId: other.id })();
    expect(await newest()).toMatchObject({ kind: 'edit', object_name: 'Fields', details: { fields: ['audienceId', 'subject'] } });
    expect(target.id).not.toBe(other.id);
    const before = await entries();
    expect((await put(`/api/campaigns/${id}`, { name: 'Fields', subject: 'New subject' })()).status).toBe(200);
    expect(await entries()).toBe(before);
  });

  it("records an address's first unsubscribe under the recipient, with the campaign, and not its repeats", async () => {
    const { id, jobIds } = await sent();
    await t.db.pool.query(`UPDATE campaign_jobs SET email = 'Once.Only@example.org' WHERE id = $1`, [jobIds[1]]);
    expect((await oneClick(jobIds[1]!)).status).toBe(200);
    const row = await newest();
    expect(row).toMatchObject({ member_email: 'once.only@example.org', kind: 'unsubscribe', object_name: 'Autumn news' });
    expect(Number(row.object_id)).toBe(id);
    const before = await entries();
    expect((await oneClick(jobIds[1]!)).status).toBe(200);
    expect(await entries()).toBe(before);
  });
});

describe('GET /api/activity', () => {
  const list = (q: string) => as(api().get(`/api/activity${q}`));

  it('pages newest first with cursors, and filters by member, kind and object', async () => {
    const other = await bearer({ email: 'otto.other@example.org' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await as(
            api()
              .post('/api/templates')
              .send({ name: `Paged ${i}` }),
          )
        ).body.id,
      );
    await api().post('/api/templates').set('Authorization', other).send({ name: 'By Otto' });

    const mine = await list(`?member=${encodeURIComponent(MEMBER.toUpperCase())}&kind=create&objectType=template&limit=2`);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((e: { objectName: string }) => e.objectName)).toEqual(['Paged 4', 'Paged 3']);
    expect(mine.body.newer).toBeNull();
    const next = await list(`?member=${encodeURIComponent(MEMBER)}&kind=create&objectType=template&limit=2&before=${mine.body.older}`);
    expect(next.body.items.map((e: { objectName: string }) => e.objectName)).toEqual(['Paged 2', 'Paged 1']);
    const back = await list(`?member=${encodeURIComponent(MEMBER)}&kind=create&objectType=template&limit=2&after=${next.body.newer}`);
    expect(back.body.items).toEqual(mine.body.items);

    const otto = await list(`?member=${encodeURIComponent('otto.other@example.org')}&kind=create`);
    expect(otto.body.items).toHaveLength(1);
    expect(otto.body.items[0]).toMatchObject({ memberEmail: 'otto.other@example.org', kind: 'create', objectName: 'By Otto' });

    const one = await list(`?objectType=template&objectId=${ids[2]}`);
    expect(one.body.items.map((e: { objectId: number }) => e.objectId)).toEqual([ids[2]]);

    const oldest = await list('?oldest=true&limit=3');
    expect(oldest.body.older).toBeNull();
    const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM activity ORDER BY created_at, id LIMIT 3');
    expect(oldest.body.items.map((e: { id: number }) => e.id)).toEqual(rows.map((r) => Number(r.id)).reverse());
  });

  it("filters by a part of the member's address, case-insensitively, with LIKE's characters taken as written", async () => {
    const members = ['mia.member@part.test', 'amelia@part.test', 'mixa@part.test', 'mi_a@part.test', '100%@part.test', '1000@part.test'];
    await t.db.pool.query(
      `INSERT INTO activity (member_email, kind, object_type) SELECT m, 'create', 'audience' FROM unnest($1::text[]) AS m`,
      [members],
    );
    const found = async (part: string) =>
      ((await list(`?member=${encodeURIComponent(part)}&limit=100`)).body.items as { memberEmail: string }[])
        .map((e) => e.memberEmail)
        .sort();
    expect(await found('MIA')).toEqual(['mia.member@part.test']);
    expect(await found('  Mia.Member@PART.test ')).toEqual(['mia.member@part.test']);
    expect(await found('mi_a')).toEqual(['mi_a@part.test']);
    expect(await found('100%')).toEqual(['100%@part.test']);
    expect(await found('@part.test')).toEqual([...members].sort());
    expect(await found('nobody-has-this')).toEqual([]);
  });

  it('filters by a part that more addresses have than it lists (the pattern read on the log), paging by keyset', async () => {
    await t.db.pool.query(
      `INSERT INTO activity (member_email, kind, object_type) SELECT 'many' || n || '@bulk.test', 'create', 'audience' FROM generate_series(1, 250) AS n`,
    );
    const first = await list('?member=BULK.test&limit=100');
    expect(first.body.items).toHaveLength(100);
    expect(first.body.items.every((e: { memberEmail: string }) => e.memberEmail.endsWith('@bulk.test'))).toBe(true);
    const second = await list(`?member=bulk.test&limit=100&before=${first.body.older}`);
    const third = await list(`?member=bulk.test&limit=100&before=${second.body.older}`);
    expect(third.body.items).toHaveLength(50);
    expect(third.body.older).toBeNull();
    const one = await list(`?member=${encodeURIComponent('many17@')}&limit=100`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.items.map((e: { memberEmail: string }) => e.memberEmail)).toEqual(['many17@bulk.test']);
  });

  it('tells whether each object is still there and, for a campaign, its status now', async () => {
    const kept = (await post('/api/audiences', { name: 'Kept' })()).body.id as number;
    const gone = (await post('/api/audiences', { name: 'Gone' })()).body.id as number;
    await del(`/api/audiences/${gone}`)();
    const { id: sentId } = await sent();
    const { id: draftId } = await draft();
    await put(`/api/campaigns/${draftId}`, { name: 'Autumn news', subject: 'Now' })();
    await post('/api/suppressions', { text: `email\nnow.${Date.now()}@example.org\n` })();

    const now = async (objectType: string, objectId?: number) =>
      (
        (await list(`?objectType=${objectType}${objectId ? `&objectId=${objectId}` : ''}&limit=1`)).body.items as {
          objectExists: boolean;
          campaignStatus: string | null;
        }[]
      )[0];
    expect(await now('audience', kept)).toMatchObject({ objectExists: true, campaignStatus: null });
    // Both of its entries (the create and the delete) name an audience that is gone.
    const goneEntries = (await list(`?objectType=audience&objectId=${gone}`)).body.items as { objectExists: boolean }[];
    expect(goneEntries.map((e) => e.objectExists)).toEqual([false, false]);
    expect(await now('campaign', sentId)).toMatchObject({ objectExists: true, campaignStatus: 'SENT' });
    expect(await now('campaign', draftId)).toMatchObject({ objectExists: true, campaignStatus: 'DRAFT' });
    expect(await now('suppression')).toMatchObject({ objectExists: false, campaignStatus: null });
  });

  it('needs a member token and refuses hostile filters', async () => {
    expect((await api().get('/api/activity')).status).toBe(401);
    expect((await list('?kind=drop-table')).status).toBe(400);
    expect((await list('?limit=1000')).status).toBe(400);
    expect((await list('?before=-1')).status).toBe(400);
  });

  it('has no call that edits or deletes the log, and the table refuses an UPDATE', async () => {
    for (const method of ['put', 'patch', 'delete', 'post'] as const) {
      expect((await as(api()[method]('/api/activity'))).status).toBeGreaterThanOrEqual(400);
      expect((await as(api()[method]('/api/activity/1'))).status).toBeGreaterThanOrEqual(400);
    }
    await expect(t.db.pool.query(`UPDATE activity SET kind = 'create'`)).rejects.toThrow(/append-only/);
  });
});

describe('the retention sweep', () => {
  it('deletes entries older than ACTIVITY_RETENTION_DAYS, in batches, and keeps the rest', async () => {
    const days = t.config.activity.retentionDays;
    expect(days).toBe(400);
    await t.db.pool.query(
      `INSERT INTO activity (created_at, member_email, kind, object_type)
       SELECT now() - ($1 + 1) * interval '1 day' - n * interval '1 second', 'old@example.org', 'create', 'audience'
         FROM generate_series(1, 12345) AS n`,
      [days],
    );
    await t.db.pool.query(
      `INSERT INTO activity (created_at, member_email, kind, object_type) VALUES (now() - ($1 - 1) * interval '1 day', 'kept@example.org', 'create', 'audience')`,
      [days],
    );
    const kept = await entries();
    expect(await t.deps.services.activity.sweep()).toEqual({ deleted: 12345 });
    expect(await entries()).toBe(kept - 12345);
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM activity WHERE member_email = 'kept@example.org'`))[0]!.n).toBe(1);
  });
});
