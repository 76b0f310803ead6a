/**
 * Helpers for the audiences screens (mfe-audiences), driven as a member would: the Create Audience
 * dialog, the import wizard (upload and paste), waiting for a background import to end, plus a
 * bearer-authenticated API handle (the token the shell itself sends) for seeding and read-backs.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, type APIRequestContext, type APIResponse, type Page, type TestInfo } from '@playwright/test';
import { signInAsMember, type Account } from './auth';

export const IMPORT_STARTED = 'Contacts are being imported in the background.';
export const IMPORTING_BANNER = /Contacts are being imported in the background\. This page refreshes automatically/;

export interface AudienceJson {
  id: number;
  name: string;
  headers: string[];
  source: string | null;
  isImporting: boolean;
  importErrorMessage: string | null;
  numberOfContacts: number;
  numberOfContactsWithErrors: number;
  createdAt: string;
}

/** The API as the signed-in member's browser calls it (same origin, same bearer token). */
export interface MemberApi {
  get(path: string): Promise<APIResponse>;
  post(path: string, data?: unknown): Promise<APIResponse>;
  /** A multipart/form-data POST, as the import wizard sends its file. */
  postForm(path: string, multipart: Multipart): Promise<APIResponse>;
  put(path: string, data: unknown): Promise<APIResponse>;
  patch(path: string, data: unknown): Promise<APIResponse>;
  delete(path: string): Promise<APIResponse>;
  audience(id: number): Promise<AudienceJson>;
  createAudience(name: string): Promise<number>;
}

type Multipart = NonNullable<NonNullable<Parameters<APIRequestContext['post']>[1]>['multipart']>;

const isApiCall = (url: string) => new URL(url).pathname.startsWith('/api/');

/** Signs the member (or `account`) in through the provider's form and keeps the bearer token the shell sends. */
export async function signInWithApi(page: Page, account?: Account): Promise<MemberApi> {
  const firstApiCall = page.waitForRequest((request) => isApiCall(request.url()), { timeout: 30_000 });
  await signInAsMember(page, account);
  const authorization = (await (await firstApiCall).allHeaders())['authorization'];
  expect(authorization, 'the shell sends a bearer token').toMatch(/^Bearer \S+$/);
  const headers = { authorization: authorization! };
  const api: MemberApi = {
    get: (path) => page.request.get(path, { headers }),
    post: (path, data) => page.request.post(path, { headers, data }),
    postForm: (path, multipart) => page.request.post(path, { headers, multipart }),
    put: (path, data) => page.request.put(path, { headers, data }),
    patch: (path, data) => page.request.patch(path, { headers, data }),
    delete: (path) => page.request.delete(path, { headers }),
    async audience(id) {
      const response = await api.get(`/api/audiences/${id}`);
      expect(response.status(), `GET /api/audiences/${id}`).toBe(200);
      return (await response.json()) as AudienceJson;
    },
    async createAudience(name) {
      const response = await api.post('/api/audiences', { name });
      expect(response.status(), `POST /api/audiences ${name}`).toBe(201);
      return ((await response.json()) as { id: number }).id;
    },
  };
  return api;
}

/** A name unique to this run and test, so searches and rows never meet another test's audiences. */
export function uniqueName(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Writes a generated fixture into the test's output folder and returns its path. */
export function writeFixture(testInfo: TestInfo, name: string, content: string | Buffer): string {
  const path = testInfo.outputPath(name);
  writeFileSync(path, content);
  return path;
}

/** Formats an ISO date as dayjs 'YYYY-MM-DD HH:mm:ss A' would in the browser's time zone (audience and campaign dates). */
export async function browserDateTime(page: Page, iso: string): Promise<string> {
  return page.evaluate((value) => {
    const d = new Date(value);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(
      d.getSeconds(),
    )} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
  }, iso);
}

export const areaTitle = (page: Page, title: string) => page.getByRole('main').getByRole('heading', { name: title, exact: true, level: 1 });

export const toast = (page: Page, message: string) => page.getByRole('listitem', { name: message });

export const audiencesTable = (page: Page) => page.getByRole('table', { name: 'Audiences' });
export const contactsTable = (page: Page) => page.getByRole('table', { name: 'Contacts' });

/** The list row whose name reads exactly `name`. */
export const audienceRow = (page: Page, name: string) =>
  audiencesTable(page)
    .getByRole('row')
    .filter({ has: page.getByText(name, { exact: true }) });

/** Opens the Create Audience dialog, creates `name` and waits for its detail page; returns its id. */
export async function createAudienceThroughDialog(page: Page, name: string): Promise<number> {
  await page.getByRole('button', { name: 'Create Audience' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Audience' });
  await dialog.getByRole('textbox', { name: 'Audience name' }).fill(name);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(/\/audiences\/\d+$/);
  await expect(areaTitle(page, name)).toBeVisible();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

/** From an audience's detail page: Options -> Import Contacts, on to the wizard's step 0. */
export async function openImportWizard(page: Page, id: number): Promise<void> {
  await page.getByRole('button', { name: 'Options' }).click();
  await page.getByRole('menuitem', { name: 'Import Contacts' }).click();
  await expect(page).toHaveURL(new RegExp(`/audiences/${id}/import$`));
  await expect(page.getByRole('list', { name: 'Import steps' }).locator('[aria-current="step"]')).toHaveText(/Choose import method/);
}

/** Step 0 -> 'Upload file' -> Next -> chooses `file` through the dropzone's input -> Import. */
export async function uploadThroughWizard(page: Page, file: string, lawfulBasis = 'Consent collected elsewhere'): Promise<void> {
  await page.getByRole('radio', { name: /^Upload file/ }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Import steps' }).locator('[aria-current="step"]')).toHaveText(/Import/);
  await page.getByLabel('CSV or TXT file', { exact: true }).setInputFiles(file);
  await expect(page.getByText(basename(file), { exact: true })).toBeVisible();
  await chooseLawfulBasis(page, lawfulBasis);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
}

/** Step 0 -> 'Copy and Paste' -> Next -> pastes `text` -> the lawful basis -> Import. */
export async function pasteThroughWizard(page: Page, text: string, lawfulBasis = 'Consent collected elsewhere'): Promise<void> {
  await page.getByRole('radio', { name: /^Copy and Paste/ }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByRole('textbox', { name: 'Contacts' }).fill(text);
  await chooseLawfulBasis(page, lawfulBasis);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
}

/** The Import step's one required choice (issue 25): why the organisation may mail what is imported, by its words. */
export async function chooseLawfulBasis(page: Page, label: string): Promise<void> {
  await page
    .getByRole('radiogroup', { name: /Lawful basis/ })
    .getByRole('radio', { name: label, exact: true })
    .check();
}

/**
 * After Import: the info toast, back on the detail page, and (whether or not the page caught the
 * importing banner) the import over: the banner gone and the Options menu offering imports again
 * or not, as the audience's source decides.
 */
export async function expectImportAccepted(page: Page, id: number): Promise<void> {
  await expect(toast(page, IMPORT_STARTED)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/audiences/${id}$`));
  // The banner may or may not be caught (a small import is done in well under the 3 s poll).
  await expect(page.getByText(IMPORTING_BANNER)).toBeHidden({ timeout: 30_000 });
}

/** Reads CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF) into records. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
