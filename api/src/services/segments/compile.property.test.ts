/**
 * The compiler against a plain evaluator (issue 26): 500 random rule trees over a seeded audience, each counted by
 * PostgreSQL through the compiled condition and by a TypeScript evaluator written straight from the rules'
 * meaning (docs/decisions/segments.md) over the same rows. Any difference fails with the tree that caused it.
 * The audience holds every case the conditions tell apart: empty and missing values, case, invalid, left and
 * suppressed contacts, mails received, failed, opened by a person or only by a machine, clicked, soft-bounced,
 * joining entries in the consent ledger and pending sign-ups, live and expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { matching } from './repository.js';
import { STATEMENT_SETTINGS } from './compile-repository.js';
import { checkRule, type CheckedCondition, type CheckedGroup, type CheckedRule, type RuleContext } from './rule.js';

const CONTACTS = 300;
const TREES = 500;

/** A small seeded generator (mulberry32): the same trees and rows on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
  };
}

interface Mail {
  campaignId: number;
  status: string;
  humanOpenedAt: string | null;
  humanClickedAt: string | null;
  soft: boolean;
}
interface Row {
  id: number;
  email: string;
  valid: boolean;
  left: boolean;
  suppressed: string | null;
  pending: boolean;
  joined: 'import' | 'form' | 'added';
  data: Record<string, string | number | boolean>;
  mails: Mail[];
}

const CITIES = ['Paris', 'paris', 'Rome', 'Berlin', 'Bern', ''];
const DOMAINS = ['a.org', 'b.a.org', 'c.net', 'Ex.com'];
const REASONS = ['UNSUBSCRIBE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER'] as const;
const DAYS = ['2026-01-05', '2026-01-10', '2026-01-15', '2026-01-20', '2026-01-25', '2026-01-30'];

let db: TestDatabase;
let audienceId: number;
let context: RuleContext;
const rows: Row[] = [];
/** The audience's SENT campaigns, newest first; and every campaign a rule may name. */
let sentNewestFirst: number[] = [];
const campaignIds: number[] = [];
let today: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const q = async <R>(sql: string, params: unknown[] = []) => (await db.pool.query(sql, params)).rows as R[];
  const rnd = random(26);
  audienceId = Number((await q<{ id: string }>(`INSERT INTO audiences (name, headers) VALUES ('Property', '[]') RETURNING id`))[0]!.id);
  context = {
    fields: [
      { key: 'city', type: 'TEXT' },
      { key: 'age', type: 'NUMBER' },
      { key: 'birthday', type: 'DATE' },
      { key: 'vip', type: 'YES_NO' },
      { key: 'plan', type: 'CHOICE', options: ['Free', 'Pro'] },
    ],
    sentCampaignIds: new Set(),
  };
  today = (await q<{ d: string }>(`SELECT current_date::text AS d`))[0]!.d;
  const [form] = await q<{ id: string }>(
    `INSERT INTO signup_forms (audience_id, slug, name, success_message, mail_subject, mail_text, from_name, from_email)
     VALUES ($1, 'property', 'Property', 'Thanks', 'Confirm', 'Confirm', 'News', 'news@example.org') RETURNING id`,
    [audienceId],
  );
  for (let n = 0; n < CONTACTS; n++) {
    const data: Record<string, string | number | boolean> = {};
    if (rnd.chance(0.8)) data.city = rnd.pick(CITIES);
    if (rnd.chance(0.7)) data.age = rnd.int(15, 80);
    if (rnd.chance(0.6)) data.birthday = rnd.chance(0.3) ? today : rnd.pick([...DAYS, '1990-06-01', '2000-02-29']);
    if (rnd.chance(0.6)) data.vip = rnd.chance(0.5);
    if (rnd.chance(0.7)) data.plan = rnd.pick(['Free', 'Pro']);
    const local = `u${n}`;
    const email = `${rnd.chance(0.1) ? local.toUpperCase() : local}@${rnd.pick(DOMAINS)}`;
    const valid = rnd.chance(0.95);
    const left = rnd.chance(0.05);
    const [row] = await q<{ id: string }>(
      `INSERT INTO contacts (audience_id, seq, valid_seq, email, error_message, data, unsubscribed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [audienceId, n + 1, valid ? n + 1 : null, email, valid ? null : 'Invalid', data, left ? new Date() : null],
    );
    const suppressed = rnd.chance(0.07) ? rnd.pick(REASONS) : null;
    if (suppressed) await q(`INSERT INTO suppressions (email_lower, reason) VALUES (lower($1), $2)`, [email, suppressed]);
    let joined: Row['joined'] = 'import';
    for (const event of ['ADDED', 'SUBSCRIBED', 'CONFIRMED'] as const) {
      if (!rnd.chance(0.12)) continue;
      await q(`INSERT INTO consent_ledger (audience_id, address_key, email, event) VALUES ($1, lower($2), $2, $3)`, [
        audienceId,
        email,
        event,
      ]);
      joined = event === 'ADDED' ? 'added' : 'form';
    }
    const pending = rnd.chance(0.08);
    if (pending || rnd.chance(0.05))
      await q(
        `INSERT INTO pending_signups (form_id, audience_id, email, consent_version, expires_at)
         VALUES ($1, $2, upper($3), 1, now() + CASE WHEN $4 THEN interval '1 day' ELSE interval '-1 day' END)`,
        [form!.id, audienceId, email, pending],
      );
    rows.push({ id: Number(row!.id), email, valid, left, suppressed, pending, joined, data, mails: [] });
  }
  // Five sent campaigns on distinct days, one still sending (a rule may name it; it is not among "the last N").
  for (const [k, day] of ['2026-01-07', '2026-01-12', '2026-01-12', '2026-01-22', '2026-01-27', '2026-01-28'].entries()) {
    const status = k === 5 ? 'SENDING' : 'SENT';
    const [campaign] = await q<{ id: string }>(
      `INSERT INTO campaigns (name, status, audience_id, delivery_date) VALUES ($1, $2, $3, $4::date + time '09:00') RETURNING id`,
      [`C${k}`, status, audienceId, day],
    );
    const campaignId = Number(campaign!.id);
    campaignIds.push(campaignId);
    (context.sentCampaignIds as Set<number>).add(campaignId);
    for (const row of rows) {
      if (!rnd.chance(0.6)) continue;
      const status = rnd.pick(['SENT_SUCCESS', 'SENT_SUCCESS', 'SENT_WAIT_ACK', 'FAILED', 'UNKNOWN']);
      const mailed = status === 'SENT_SUCCESS' || status === 'SENT_WAIT_ACK';
      const openDay = rnd.pick(DAYS);
      const humanOpenedAt = mailed && rnd.chance(0.35) ? `${openDay}T12:00:00Z` : null;
      const machineOpen = mailed && !humanOpenedAt && rnd.chance(0.2);
      const humanClickedAt = humanOpenedAt && rnd.chance(0.4) ? `${openDay}T13:00:00Z` : null;
      const soft = mailed && rnd.chance(0.15);
      await q(
        `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, opened_at, human_opened_at, clicked_at, human_clicked_at, bounce_type)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
        [
          campaignId,
          row.id,
          row.email,
          status,
          humanOpenedAt ?? (machineOpen ? `${openDay}T12:00:00Z` : null),
          humanOpenedAt,
          humanClickedAt,
          soft ? 'SOFT' : null,
        ],
      );
      row.mails.push({ campaignId, status, humanOpenedAt, humanClickedAt, soft });
    }
  }
  sentNewestFirst = campaignIds.slice(0, 5).reverse();
}, 120_000);
afterAll(() => db?.drop());

// ------------------------------------------------------------------ the plain evaluator

const lower = (text: string) => text.toLowerCase();
const at = (mail: Mail, what: 'opened' | 'clicked') => (what === 'opened' ? mail.humanOpenedAt : mail.humanClickedAt);

function holds(row: Row, c: CheckedCondition): boolean {
  switch (c.kind) {
    case 'field': {
      const value = row.data[c.key];
      const empty = value === undefined || value === '';
      if (c.operator === 'isEmpty') return empty;
      if (c.operator === 'isNotEmpty') return !empty;
      switch (c.type) {
        case 'TEXT':
        case 'CHOICE': {
          const text = typeof value === 'string' ? lower(value) : undefined;
          switch (c.operator) {
            case 'equals':
              return text === lower(c.value);
            case 'notEquals':
              return text !== lower(c.value);
            case 'contains':
              return text !== undefined && text.includes(lower(c.value));
            case 'startsWith':
              return text !== undefined && text.startsWith(lower(c.value));
            case 'oneOf':
              return text !== undefined && c.value.map(lower).includes(text);
          }
          break;
        }
        case 'NUMBER': {
          const number = typeof value === 'number' ? value : undefined;
          switch (c.operator) {
            case 'equals':
              return number === c.value;
            case 'notEquals':
              return number !== c.value;
            case 'greaterThan':
              return number !== undefined && number > c.value;
            case 'lessThan':
              return number !== undefined && number < c.value;
          }
          break;
        }
        case 'DATE': {
          const day = typeof value === 'string' ? value : undefined;
          if (day === undefined) return false;
          if (c.operator === 'withinLastDays') {
            const from = new Date(Date.parse(`${today}T00:00:00Z`) - c.value * 86_400_000).toISOString().slice(0, 10);
            return day >= from && day <= today;
          }
          if (c.operator === 'before') return day < c.value;
          if (c.operator === 'after') return day > c.value;
          break;
        }
        case 'YES_NO':
          return c.operator === 'equals' && value === c.value;
      }
      throw new Error('no such field condition');
    }
    case 'domain': {
      const domain = lower(row.email).split('@').at(-1)!;
      switch (c.operator) {
        case 'equals':
          return domain === c.values[0];
        case 'notEquals':
          return domain !== c.values[0];
        case 'endsWith':
          return domain.endsWith(c.values[0]!);
        case 'oneOf':
          return c.values.includes(domain);
      }
      break;
    }
    case 'subscription': {
      const state =
        c.state === 'subscribed'
          ? !row.left && row.suppressed === null
          : c.state === 'unsubscribed'
            ? row.left
            : c.state === 'pending'
              ? row.pending
              : c.reason === undefined
                ? row.suppressed !== null
                : row.suppressed === c.reason;
      return c.negated ? !state : state;
    }
    case 'joined':
      return (row.joined === c.how) !== c.negated;
    case 'engagement': {
      const reached = (mail: Mail) => at(mail, c.what) !== null;
      if (c.operator === 'never') return !row.mails.some(reached);
      if (c.operator === 'since') return row.mails.some((mail) => reached(mail) && at(mail, c.what)!.slice(0, 10) >= c.date);
      const last = sentNewestFirst.slice(0, c.last);
      const inLast = last.filter((id) => row.mails.some((mail) => mail.campaignId === id && reached(mail)));
      if (c.operator === 'anyOfLast') return inLast.length > 0;
      if (c.operator === 'noneOfLast') return inLast.length === 0;
      return last.length > 0 && inLast.length === last.length;
    }
    case 'softBounces':
      return row.mails.filter((mail) => mail.soft).length >= c.atLeast;
    case 'campaign': {
      const mail = row.mails.find((one) => one.campaignId === c.campaignId);
      const state =
        mail !== undefined &&
        (c.what === 'received'
          ? mail.status === 'SENT_SUCCESS' || mail.status === 'SENT_WAIT_ACK'
          : at(mail, c.what === 'opened' ? 'opened' : 'clicked') !== null);
      return c.negated ? !state : state;
    }
  }
  throw new Error('no such condition');
}

const isGroup = (one: CheckedCondition | CheckedGroup): one is CheckedGroup => 'combinator' in one;
const all = (combinator: 'and' | 'or', results: boolean[]) =>
  results.length === 0 ? true : combinator === 'and' ? results.every(Boolean) : results.some(Boolean);

function evaluate(rule: CheckedRule): number[] {
  return rows
    .filter((row) => row.valid && !row.left && row.suppressed === null)
    .filter((row) =>
      all(
        rule.combinator,
        rule.rules.map((one) =>
          isGroup(one)
            ? all(
                one.combinator,
                one.rules.map((c) => holds(row, c)),
              )
            : holds(row, one),
        ),
      ),
    )
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

// ------------------------------------------------------------------ random trees

function randomCondition(rnd: ReturnType<typeof random>): object {
  const field = rnd.pick(['city', 'age', 'birthday', 'vip', 'plan', 'domain', 'subscription', 'joined', 'engagement', 'soft', 'campaign']);
  switch (field) {
    case 'city':
      return rnd.pick([
        {
          field: 'fields.city',
          operator: rnd.pick(['equals', 'notEquals', 'contains', 'startsWith']),
          value: rnd.pick(['Paris', 'PAR', 'r', 'Bern', 'e']),
        },
        { field: 'fields.city', operator: 'oneOf', value: [rnd.pick(['rome', 'Berlin']), rnd.pick(['Paris', 'x'])] },
        { field: 'fields.city', operator: rnd.pick(['isEmpty', 'isNotEmpty']) },
      ]);
    case 'age':
      return rnd.chance(0.2)
        ? { field: 'fields.age', operator: rnd.pick(['isEmpty', 'isNotEmpty']) }
        : { field: 'fields.age', operator: rnd.pick(['equals', 'notEquals', 'greaterThan', 'lessThan']), value: rnd.int(14, 81) };
    case 'birthday':
      return rnd.pick([
        { field: 'fields.birthday', operator: rnd.pick(['before', 'after']), value: rnd.pick([...DAYS, '1995-01-01']) },
        { field: 'fields.birthday', operator: 'withinLastDays', value: rnd.int(1, 400) },
        { field: 'fields.birthday', operator: rnd.pick(['isEmpty', 'isNotEmpty']) },
      ]);
    case 'vip':
      return rnd.chance(0.3)
        ? { field: 'fields.vip', operator: rnd.pick(['isEmpty', 'isNotEmpty']) }
        : { field: 'fields.vip', operator: 'equals', value: rnd.chance(0.5) };
    case 'plan':
      return rnd.pick([
        { field: 'fields.plan', operator: rnd.pick(['equals', 'notEquals']), value: rnd.pick(['free', 'Pro']) },
        { field: 'fields.plan', operator: 'oneOf', value: ['Pro'] },
        { field: 'fields.plan', operator: rnd.pick(['isEmpty', 'isNotEmpty']) },
      ]);
    case 'domain':
      return rnd.chance(0.3)
        ? { field: 'email.domain', operator: 'oneOf', value: [rnd.pick(DOMAINS), rnd.pick(DOMAINS)] }
        : { field: 'email.domain', operator: rnd.pick(['equals', 'notEquals', 'endsWith']), value: rnd.pick([...DOMAINS, 'org', '.org']) };
    case 'subscription':
      return {
        field: 'subscription',
        operator: rnd.pick(['equals', 'notEquals']),
        value: rnd.pick(['subscribed', 'pending', 'unsubscribed', 'suppressed', ...REASONS.map((r) => `suppressed:${r}`)]),
      };
    case 'joined':
      return { field: 'joined', operator: rnd.pick(['equals', 'notEquals']), value: rnd.pick(['import', 'form', 'added']) };
    case 'engagement': {
      const what = rnd.pick(['engagement.opened', 'engagement.clicked']);
      return rnd.pick([
        { field: what, operator: rnd.pick(['anyOfLast', 'allOfLast', 'noneOfLast']), value: rnd.int(1, 7) },
        { field: what, operator: 'since', value: rnd.pick(DAYS) },
        { field: what, operator: 'never' },
      ]);
    }
    case 'soft':
      return { field: 'softBounces', operator: 'atLeast', value: rnd.int(1, 3) };
    default:
      return {
        field: rnd.pick(['campaign.received', 'campaign.opened', 'campaign.clicked']),
        operator: rnd.pick(['is', 'isNot']),
        value: rnd.pick(campaignIds),
      };
  }
}

function randomTree(rnd: ReturnType<typeof random>): object {
  const items = Array.from({ length: rnd.int(0, 4) }, () =>
    rnd.chance(0.3)
      ? { combinator: rnd.pick(['and', 'or']), rules: Array.from({ length: rnd.int(0, 3) }, () => randomCondition(rnd)) }
      : randomCondition(rnd),
  );
  return { combinator: rnd.pick(['and', 'or']), rules: items };
}

describe('the compiled rule against a plain evaluator', () => {
  it(`agrees on ${TREES} random trees`, async () => {
    const rnd = random(1026);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(STATEMENT_SETTINGS);
      const matched = new Set<number>();
      for (let n = 0; n < TREES; n++) {
        const tree = randomTree(rnd);
        const rule = checkRule(tree, context);
        const { from, params } = matching(rule, audienceId);
        const { rows: found } = await client.query<{ id: string }>(`SELECT c.id ${from} ORDER BY c.id`, params);
        const sql = found.map((row) => Number(row.id));
        expect(sql, `tree ${n}: ${JSON.stringify(tree)}`).toEqual(evaluate(rule));
        matched.add(sql.length);
      }
      // The trees are not all trivial: their counts spread over many sizes.
      expect(matched.size).toBeGreaterThan(50);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }, 120_000);
});
