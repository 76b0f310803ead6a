import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { contentDisposition, csvCell, exportContactsCsv, exportFileName } from './export.js';
import { importContacts } from './importer.js';
import { findContactPage, likeContains, SEARCH_CAP, type AudienceContactCounts } from './repository.js';

let db: TestDatabase;
let dir: string;
let audience: AudienceContactCounts;

/** 23 contacts: every third one invalid. */
const CONTACTS = Array.from({ length: 23 }, (_, i) => (i % 3 === 2 ? `bad-${i}` : `User${i}@Example.org`));

async function imported(content: string): Promise<AudienceContactCounts> {
  const { rows } = await db.pool.query<{ id: number }>(`INSERT INTO audiences (name, is_importing) VALUES ('a', true) RETURNING id`);
  const id = rows[0]!.id;
  await writeFile(join(dir, `${id}.csv`), content);
  const outcome = await importContacts(
    db.pool,
    { audienceId: id, path: `${id}.csv`, source: 'CSV' },
    {
      dir,
      limits: { maxLineChars: 1000, maxColumns: 10 },
    },
  );
  if (outcome.status !== 'imported') throw new Error(JSON.stringify(outcome));
  return { id, numberOfContacts: outcome.contacts, numberOfContactsWithErrors: outcome.contactsWithErrors };
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'mailroom-contacts-test-'));
  audience = await imported(['Email,Number', ...CONTACTS.map((email, i) => `${email},${i}`)].join('\n'));
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

const emails = (page: { items: { email: string }[] }) => page.items.map((c) => c.email);

describe('findContactPage', () => {
  it('pages through all contacts in file order, the last page included, with the stored total', async () => {
    const first = await findContactPage(db.pool, audience, { page: 1, limit: 10 });
    expect(first.totalItems).toBe(23);
    expect(emails(first)).toEqual(CONTACTS.slice(0, 10));
    expect(first.items[0]).toEqual({ id: expect.any(Number), email: 'User0@Example.org', errorMessage: null, data: { Number: '0' } });
    expect(first.items[2]).toMatchObject({ email: 'bad-2', errorMessage: 'Invalid email address' });
    expect(emails(await findContactPage(db.pool, audience, { page: 3, limit: 10 }))).toEqual(CONTACTS.slice(20));
    expect(emails(await findContactPage(db.pool, audience, { page: 4, limit: 10 }))).toEqual([]);
  });

  it('filters by status', async () => {
    const errors = CONTACTS.filter((e) => e.startsWith('bad'));
    const valid = CONTACTS.filter((e) => !e.startsWith('bad'));
    const errorPage = await findContactPage(db.pool, audience, { page: 2, limit: 5, hasError: true });
    expect(errorPage.totalItems).toBe(errors.length);
    expect(emails(errorPage)).toEqual(errors.slice(5, 10));
    const validPage = await findContactPage(db.pool, audience, { page: 3, limit: 5, hasError: false });
    expect(validPage.totalItems).toBe(valid.length);
    expect(emails(validPage)).toEqual(valid.slice(10, 15));
  });

  it('filters by a case-insensitive substring of the address, alone or with the status', async () => {
    const page = await findContactPage(db.pool, audience, { page: 1, limit: 10, email: '  user1 ' });
    const matching = CONTACTS.filter((e) => e.toLowerCase().includes('user1'));
    expect(page.totalItems).toBe(matching.length);
    expect(emails(page)).toEqual(matching.slice(0, 10));
    expect(emails(await findContactPage(db.pool, audience, { page: 2, limit: 2, email: 'EXAMPLE' }))).toEqual(
      CONTACTS.filter((e) => e.includes('Example')).slice(2, 4),
    );
    const bad = await findContactPage(db.pool, audience, { page: 1, limit: 10, email: '-1', hasError: true });
    expect(emails(bad)).toEqual(['bad-11', 'bad-14', 'bad-17']);
    expect(bad.totalItems).toBe(3);
    expect(await findContactPage(db.pool, audience, { page: 1, limit: 10, email: '-1', hasError: false })).toEqual({
      items: [],
      totalItems: 0,
    });
    // A blank filter is no filter.
    expect((await findContactPage(db.pool, audience, { page: 1, limit: 10, email: '   ' })).totalItems).toBe(23);
  });

  it('searches LIKE wildcards literally', async () => {
    expect(likeContains('a%b_c\\')).toBe('%a\\%b\\_c\\\\%');
    expect((await findContactPage(db.pool, audience, { page: 1, limit: 10, email: '%' })).totalItems).toBe(0);
    expect((await findContactPage(db.pool, audience, { page: 1, limit: 10, email: '_' })).totalItems).toBe(0);
  });

  it('caps what a search counts and pages through', async () => {
    const big = await imported(['email', ...Array.from({ length: SEARCH_CAP + 5 }, (_, i) => `p${i}@example.org`)].join('\n'));
    const page = await findContactPage(db.pool, big, { page: SEARCH_CAP / 10, limit: 10, email: 'example' });
    expect(page.totalItems).toBe(SEARCH_CAP);
    expect(emails(page).at(-1)).toBe(`p${SEARCH_CAP - 1}@example.org`);
    expect((await findContactPage(db.pool, big, { page: SEARCH_CAP / 10 + 1, limit: 10, email: 'example' })).items).toEqual([]);
    // Without a search, everything.
    expect((await findContactPage(db.pool, big, { page: 1001, limit: 10 })).items).toHaveLength(5);
  });
});

describe('exportContactsCsv', () => {
  it('streams email then every header, quoted, with formula cells made inert', async () => {
    const a = await imported(
      [
        'Name,email,=Formula Header,Note',
        'Ann,ann@example.org,=1+2,"a, ""quoted""\nline"',
        '@SUM(A1),+bad,-3,\tx',
        'Bob,bob@example.org,,',
      ].join('\r\n'),
    );
    const headers = ['Name', '=Formula Header', 'Note'];
    const csv = await text(await exportContactsCsv(db.pool, { id: a.id, name: 'x', headers }));
    expect(csv.split('\n')[0]).toBe(`"email","Name","'=Formula Header","Note"`);
    const parsed = Papa.parse<string[]>(csv.trimEnd(), { newline: '\n' }).data;
    expect(parsed).toEqual([
      ['email', 'Name', "'=Formula Header", 'Note'],
      ['ann@example.org', 'Ann', "'=1+2", 'a, "quoted"\nline'],
      ["'+bad", "'@SUM(A1)", "'-3", '\tx'.trim()],
      ['bob@example.org', 'Bob', '', ''],
    ]);
  });

  it('exports an audience without contacts as its header line', async () => {
    const csv = await text(await exportContactsCsv(db.pool, { id: 999_999, name: 'x', headers: ['A'] }));
    expect(csv).toBe('"email","A"\n');
  });

  it('makes every risky first character inert', () => {
    for (const c of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${c}x`)).toBe(`"'${c}x"`);
    expect(csvCell('plain "q"')).toBe('"plain ""q"""');
  });

  it('names the file after the audience (RFC 6266)', () => {
    expect(exportFileName('Newsletter 2024')).toEqual({ ascii: 'Newsletter 2024-contacts.csv', utf8: 'Newsletter 2024-contacts.csv' });
    expect(contentDisposition('Café "Ünïcode"/x')).toBe(
      `attachment; filename="Cafe Unicode x-contacts.csv"; filename*=UTF-8''Caf%C3%A9%20%C3%9Cn%C3%AFcode%20x-contacts.csv`,
    );
    expect(exportFileName('日本').ascii).toBe('audience-contacts.csv');
    expect(exportFileName('a\r\nb').ascii).toBe('a b-contacts.csv');
  });
});
