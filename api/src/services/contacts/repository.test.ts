import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { createSearchCache } from '../search-index.js';
import { csvCell, exportContactsCsv } from './export.js';
import { importContacts } from '../imports/importer.js';
import { folderSpool } from '../../spool/folder-spool.js';
import { importRepository } from '../imports/repository.js';
import { findContactPage, likeContains, type AudienceContactCounts } from './repository.js';

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
    importRepository(db.database),
    { audienceId: id, upload: `${id}.csv`, source: 'CSV' },
    {
      spool: folderSpool(dir),
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
const searches = createSearchCache();
const find = (of: AudienceContactCounts, query: Parameters<typeof findContactPage>[2]) => findContactPage(db.pool, of, query, searches);

describe('findContactPage', () => {
  it('pages through all contacts in file order, the last page included, with the stored total', async () => {
    const first = await find(audience, { page: 1, limit: 10 });
    expect(first.totalItems).toBe(23);
    expect(emails(first)).toEqual(CONTACTS.slice(0, 10));
    expect(first.items[0]).toEqual({
      id: expect.any(Number),
      email: 'User0@Example.org',
      errorMessage: null,
      data: { Number: '0' },
      suppressionReason: null,
    });
    expect(first.items[2]).toMatchObject({ email: 'bad-2', errorMessage: 'Invalid email address' });
    expect(emails(await find(audience, { page: 3, limit: 10 }))).toEqual(CONTACTS.slice(20));
    expect(emails(await find(audience, { page: 4, limit: 10 }))).toEqual([]);
  });

  it('filters by status', async () => {
    const errors = CONTACTS.filter((e) => e.startsWith('bad'));
    const valid = CONTACTS.filter((e) => !e.startsWith('bad'));
    const errorPage = await find(audience, { page: 2, limit: 5, hasError: true });
    expect(errorPage.totalItems).toBe(errors.length);
    expect(emails(errorPage)).toEqual(errors.slice(5, 10));
    const validPage = await find(audience, { page: 3, limit: 5, hasError: false });
    expect(validPage.totalItems).toBe(valid.length);
    expect(emails(validPage)).toEqual(valid.slice(10, 15));
  });

  it('filters by a case-insensitive substring of the address, alone or with the status', async () => {
    const page = await find(audience, { page: 1, limit: 10, email: '  user1 ' });
    const matching = CONTACTS.filter((e) => e.toLowerCase().includes('user1'));
    expect(page.totalItems).toBe(matching.length);
    expect(emails(page)).toEqual(matching.slice(0, 10));
    expect(emails(await find(audience, { page: 2, limit: 2, email: 'EXAMPLE' }))).toEqual(
      CONTACTS.filter((e) => e.includes('Example')).slice(2, 4),
    );
    const bad = await find(audience, { page: 1, limit: 10, email: '-1', hasError: true });
    expect(emails(bad)).toEqual(['bad-11', 'bad-14', 'bad-17']);
    expect(bad.totalItems).toBe(3);
    expect(await find(audience, { page: 1, limit: 10, email: '-1', hasError: false })).toEqual({
      items: [],
      totalItems: 0,
    });
    // A blank filter is no filter.
    expect((await find(audience, { page: 1, limit: 10, email: '   ' })).totalItems).toBe(23);
  });

  it('searches LIKE wildcards literally', async () => {
    expect(likeContains('a%b_c\\')).toBe('%a\\%b\\_c\\\\%');
    expect((await find(audience, { page: 1, limit: 10, email: '%' })).totalItems).toBe(0);
    expect((await find(audience, { page: 1, limit: 10, email: '_' })).totalItems).toBe(0);
  });

  it('counts and pages a search exactly beyond 10,000 matches, with either status', async () => {
    // 10,010 addresses at example.org and 10 invalid ones among them; two elsewhere.
    const addresses = Array.from({ length: 10_020 }, (_, i) => (i % 1000 === 999 ? `p${i}@example` : `p${i}@example.org`));
    const big = await imported(['email', 'x@elsewhere.net', ...addresses, 'y@elsewhere.net'].join('\n'));
    const all = addresses.filter((email) => email.includes('example.org'));
    const invalid = addresses.filter((email) => !email.includes('example.org'));
    expect(all.length).toBeGreaterThan(10_005);
    const first = await find(big, { page: 1, limit: 10, email: 'EXAMPLE.org' });
    expect(first.totalItems).toBe(all.length);
    expect(emails(first)).toEqual(all.slice(0, 10));
    const lastPage = Math.ceil(all.length / 10);
    expect(emails(await find(big, { page: lastPage, limit: 10, email: 'example.org' }))).toEqual(all.slice((lastPage - 1) * 10));
    expect(emails(await find(big, { page: 501, limit: 10, email: 'example.org' }))).toEqual(all.slice(5000, 5010));
    expect(await find(big, { page: lastPage + 1, limit: 10, email: 'example.org' })).toEqual({ items: [], totalItems: all.length });
    // The status filter inside a search: 'example' matches the invalid addresses too.
    const errors = await find(big, { page: 1, limit: 100, email: 'example', hasError: true });
    expect({ total: errors.totalItems, emails: emails(errors) }).toEqual({ total: invalid.length, emails: invalid });
    const valid = await find(big, { page: 1001, limit: 10, email: 'example', hasError: false });
    expect({ total: valid.totalItems, emails: emails(valid) }).toEqual({ total: all.length, emails: all.slice(10_000, 10_010) });
    // Without a search, everything.
    expect((await find(big, { page: 1003, limit: 10 })).items).toHaveLength(2);
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
    const csv = await text(await exportContactsCsv(db.database, { id: a.id, name: 'x', headers }));
    expect(csv.split('\n')[0]).toBe(`"email","Name","'=Formula Header","Note","Latest consent"`);
    const parsed = Papa.parse<string[]>(csv.trimEnd(), { newline: '\n' }).data;
    // The import, queued by nobody here, is every contact's latest consent.
    const consent = `Imported, ${new Date().toISOString().slice(0, 10)}`;
    expect(parsed).toEqual([
      ['email', 'Name', "'=Formula Header", 'Note', 'Latest consent'],
      ['ann@example.org', 'Ann', "'=1+2", 'a, "quoted"\nline', consent],
      ["'+bad", "'@SUM(A1)", "'-3", '\tx'.trim(), consent],
      ['bob@example.org', 'Bob', '', '', consent],
    ]);
  });

  it('exports an audience without contacts as its header line', async () => {
    const csv = await text(await exportContactsCsv(db.database, { id: 999_999, name: 'x', headers: ['A'] }));
    expect(csv).toBe('"email","A","Latest consent"\n');
  });

  it('makes every risky first character inert', () => {
    for (const c of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${c}x`)).toBe(`"'${c}x"`);
    expect(csvCell('plain "q"')).toBe('"plain ""q"""');
  });
});
