/**
 * Helpers for the campaigns screens (mfe-campaigns): audiences with contacts, templates with merge
 * tags and campaigns seeded through the API as the member's browser calls it (the import goes
 * through the real upload and RabbitMQ consumer), and the list's and the editor's landmarks.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Campaign } from '@mailroom/api-client';
import type { AudienceJson, MemberApi } from './audiences';
import { createTemplate } from './templates';

/** One contact of a seeded audience: the columns are email, firstName and city. */
export interface Person {
  email: string;
  firstName: string;
  city: string;
}

/** A lower-case tag unique to this run and call, for addresses no other test uses. */
export function uniqueTag(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 46656).toString(36)}`;
}

const FIRST_NAMES = ['Ada', 'Ben', 'Cleo', 'Dev', 'Esme', 'Finn', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lea', 'Mo', 'Nia'];
const CITIES = ['Paris', 'Oslo', 'Lima', 'Rome', 'Kyiv', 'Pune', 'Cork', 'Bern', 'Riga', 'Nara', 'Faro', 'Gent', 'Lund', 'Vigo'];

/** `count` people `<tag>-<n>@example.org` (at most 14), each with a first name and a city of their own. */
export function people(tag: string, count: number): Person[] {
  return Array.from({ length: count }, (_, n) => ({ email: `${tag}-${n}@example.org`, firstName: FIRST_NAMES[n]!, city: CITIES[n]! }));
}

/**
 * Creates the audience `name` and imports `rows` (columns email, firstName, city; `invalid` adds rows
 * whose address is not one) through the upload call, then waits until the import is over.
 */
export async function seedAudience(
  api: MemberApi,
  name: string,
  rows: Person[],
  { invalid = [] }: { invalid?: string[] } = {},
): Promise<AudienceJson> {
  const id = await api.createAudience(name);
  const lines = [
    'email,firstName,city',
    ...rows.map((p) => `${p.email},${p.firstName},${p.city}`),
    ...invalid.map((e) => `${e},Nobody,Nowhere`),
  ];
  const uploaded = await api.postForm(`/api/audiences/${id}/import/file?type=csv`, {
    file: { name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) },
  });
  expect(uploaded.status(), `import into audience ${id}`).toBe(202);
  await expect
    .poll(
      async () => {
        const audience = await api.audience(id);
        return audience.isImporting ? 'importing' : `${audience.numberOfContacts} contacts, ${audience.importErrorMessage ?? 'no error'}`;
      },
      { timeout: 30_000 },
    )
    .toBe(`${rows.length + invalid.length} contacts, no error`);
  return api.audience(id);
}

/**
 * A newsletter using merge tags in its text and an address, with a link and a script that must never
 * run anywhere in the app.
 */
export const NEWSLETTER_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head>' +
  '<body style="margin:0;font-family:sans-serif">' +
  '<h1 style="background:#0f6cbd;color:#ffffff;padding:24px;margin:0">Spring news</h1>' +
  '<p style="padding:0 24px">Dear {{firstName}} of {{city}},</p>' +
  '<p style="padding:0 24px">This copy was made for {{email}}.</p>' +
  '<p style="padding:0 24px"><a href="https://example.org/news">Read the news</a></p>' +
  '<script>window.top.templateScriptRan = true;</script>' +
  '</body></html>';

/** What a person's copy of NEWSLETTER_HTML greets them with. */
export const greetingOf = (person: Pick<Person, 'firstName' | 'city'>) => `Dear ${person.firstName} of ${person.city},`;

/** A template named `name` whose html is `html` (the design is the editor stand-in's). */
export async function seedTemplate(api: MemberApi, name: string, html = NEWSLETTER_HTML): Promise<number> {
  const id = await createTemplate(api, name);
  const saved = await api.put(`/api/templates/${id}`, { name, design: { text: name }, html });
  expect(saved.status(), `PUT /api/templates/${id}`).toBe(200);
  return id;
}

/** The sender addresses the organisation authorized (the editor's From email choices). */
export async function authorizedSenders(api: MemberApi): Promise<string[]> {
  const response = await api.get('/api/campaigns/authorized-sent-emails');
  expect(response.status()).toBe(200);
  return (await response.json()) as string[];
}

export interface CampaignFields {
  audienceId?: number | null;
  templateId?: number | null;
  fromName?: string | null;
  fromEmail?: string | null;
  subject?: string | null;
  previewText?: string | null;
}

/** Creates a campaign (a draft) and, when `fields` are given, saves them as the editor's form would. */
export async function seedCampaign(api: MemberApi, name: string, fields?: CampaignFields): Promise<number> {
  const created = await api.post('/api/campaigns', { name });
  expect(created.status(), `POST /api/campaigns ${name}`).toBe(201);
  const { id } = (await created.json()) as { id: number };
  if (fields) {
    const body = { name, audienceId: null, templateId: null, fromName: null, fromEmail: null, subject: null, previewText: null, ...fields };
    const saved = await api.put(`/api/campaigns/${id}`, body);
    expect(saved.status(), `PUT /api/campaigns/${id}`).toBe(200);
  }
  return id;
}

export async function readCampaign(api: MemberApi, id: number): Promise<Campaign> {
  const response = await api.get(`/api/campaigns/${id}`);
  expect(response.status(), `GET /api/campaigns/${id}`).toBe(200);
  return (await response.json()) as Campaign;
}

/** Waits until the campaign's status is `status` (sending runs in the stack's worker). */
export async function waitForStatus(api: MemberApi, id: number, status: Campaign['status'], timeout = 30_000): Promise<Campaign> {
  await expect.poll(async () => (await readCampaign(api, id)).status, { timeout }).toBe(status);
  return readCampaign(api, id);
}

export const listOf = (name: string) => `/campaigns?name=${encodeURIComponent(name)}`;

export const campaignsTable = (page: Page) => page.getByRole('table', { name: 'Campaigns' });

/** The list row whose name link reads exactly `name`. */
export const campaignRow = (page: Page, name: string) =>
  campaignsTable(page)
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

/** The row's menu (Rename, Replicate, Delete), opened. */
export async function openRowMenu(page: Page, name: string): Promise<void> {
  await campaignRow(page, name)
    .getByRole('button', { name: `More actions for ${name}` })
    .click();
  await expect(page.getByRole('menu')).toBeVisible();
}

export type SectionTitle = 'To' | 'From' | 'Subject' | 'Content' | 'A/B test';

/** One of the editor's accordion sections (four, and the optional A/B test), by its heading's title. */
export const editorSection = (page: Page, title: SectionTitle): Locator =>
  page
    .getByRole('main')
    .getByRole('heading', { level: 2 })
    .filter({ has: page.getByText(title, { exact: true }) });

/** Expects the section's done or not-done icon. */
export async function expectSection(page: Page, title: SectionTitle, state: 'done' | 'not done'): Promise<void> {
  await expect(editorSection(page, title).getByRole('img'), `the ${title} section`).toHaveAccessibleName(state);
}

/** Opens the section unless it is open. */
export async function openSection(page: Page, title: SectionTitle): Promise<void> {
  const header = editorSection(page, title).getByRole('button');
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'true');
}

/**
 * In an open picker ('Choose an audience' or 'Choose a template'): searches for `name`, which must
 * be the only match, and selects it; the picker closes.
 */
export async function pick(page: Page, title: 'Choose an audience' | 'Choose a template', name: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('searchbox').fill(name);
  await dialog.getByRole('searchbox').press('Enter');
  await expect(dialog.getByText('1–1 of 1')).toBeVisible();
  await dialog.getByRole('button', { name: `Select ${name}`, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The Error dialog of the pre-send checks. */
export const errorDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Error' });
