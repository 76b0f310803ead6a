/**
 * The segment compiler (issue 26; docs/decisions/segments.md), a repository because it writes SQL: a checked rule
 * (rule.ts) becomes one SQL condition over a contact `c`, with every value and every field key a bind parameter.
 * The SQL text is made only of this file's fixed fragments, chosen by the checked tree's kinds and operators: no
 * text a client sent is ever part of it.
 *
 * Engagement and campaign conditions are EXISTS over the contact's jobs: PostgreSQL runs them as a semi- or
 * anti-join at the top of an AND, and under an OR or a NOT as one hashed subplan built once per statement (or
 * index probes, when the set would not fit in memory). The two that count per contact (all of the last N, soft
 * bounces) are an uncorrelated IN over a grouped set, which is small. Opens and clicks are people's only
 * (human_opened_at, human_clicked_at: the report's verdicts), as follow-ups count them.
 */
import { isErased, isSuppressed, ANY_ERASED } from '../suppressions/erased.js';
import type { CheckedCondition, CheckedGroup, CheckedRule, Engagement } from './rule.js';

/**
 * Runs before a statement that holds a compiled rule, in its transaction (SET LOCAL: the transaction's only).
 * A rule's estimated cost is high (a subplan per condition), so PostgreSQL would JIT-compile every count:
 * measured at 200,000 contacts, 1.26 s of compiling for a 0.26 s scan; these statements are short and run often,
 * so compiling never pays off. And the set of contacts a condition reads (who opened the last 3 campaigns: a
 * quarter of a million ids at a million contacts) is hashed once per statement only if it fits the working
 * memory; 32 MB holds several such sets, where the default 4 MB would leave PostgreSQL probing per contact.
 */
export const STATEMENT_SETTINGS = `SELECT set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`;

/** A condition and its parameters, numbered from the first free one given to compileRule. */
export interface CompiledRule {
  sql: string;
  params: unknown[];
}

/** A campaign's jobs that count as received: accepted by SES (a bounce keeps its job's status), as follow-ups count them. */
const RECEIVED = `j.status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')`;
const PERSON: Record<Engagement, string> = { opened: 'j.human_opened_at', clicked: 'j.human_clicked_at' };
/** Joining entries of the consent ledger: a member's addition, a form's sign-up and its confirmation. */
const JOINING_EVENTS = `('ADDED', 'SUBSCRIBED', 'CONFIRMED')`;

/**
 * The contacts a send reaches, before any rule: of the audience `audience` (a parameter), valid, still in the
 * audience and not suppressed (an erased address included), as the send's INSERT ... SELECT chooses them.
 */
export const sendable = (audience: string) =>
  `c.audience_id = ${audience} AND c.error_message IS NULL AND c.unsubscribed_at IS NULL AND NOT ${isSuppressed('c.email')}`;

/**
 * Compiles `rule` for the audience whose id is the parameter `audience` (e.g. '$1'); its own parameters are
 * numbered from `firstParam`. An empty rule, or an empty group, matches every contact.
 */
export function compileRule(rule: CheckedRule, audience: string, firstParam: number): CompiledRule {
  const params: unknown[] = [];
  const param = (value: unknown, cast: string): string => `$${firstParam + params.push(value) - 1}::${cast}`;
  // The audience's campaigns that were sent, newest first: the N of "the last N campaigns".
  const lastSent = (n: number) =>
    `SELECT id FROM campaigns WHERE audience_id = ${audience} AND status = 'SENT' ORDER BY delivery_date DESC NULLS LAST, id DESC LIMIT ${param(n, 'int')}`;
  const ofAudience = `SELECT id FROM campaigns WHERE audience_id = ${audience}`;

  const field = (condition: Extract<CheckedCondition, { kind: 'field' }>): string => {
    const key = param(condition.key, 'text');
    const value = `(c.data ->> ${key})`;
    switch (condition.operator) {
      case 'isEmpty':
        return `coalesce(${value}, '') = ''`;
      case 'isNotEmpty':
        return `coalesce(${value}, '') <> ''`;
    }
    switch (condition.type) {
      case 'TEXT':
      case 'CHOICE':
        // Text is compared without regard to case, as a person reads it.
        switch (condition.operator) {
          case 'equals':
            return `coalesce(lower(${value}) = lower(${param(condition.value, 'text')}), false)`;
          case 'notEquals':
            return `NOT coalesce(lower(${value}) = lower(${param(condition.value, 'text')}), false)`;
          case 'contains':
            return `coalesce(strpos(lower(${value}), lower(${param(condition.value, 'text')})) > 0, false)`;
          case 'startsWith':
            return `coalesce(starts_with(lower(${value}), lower(${param(condition.value, 'text')})), false)`;
          case 'oneOf':
            return `coalesce(lower(${value}) = ANY (${param(
              condition.value.map((one) => one.toLowerCase()),
              'text[]',
            )}), false)`;
        }
        break;
      case 'NUMBER': {
        // A value that is not a JSON number (none should be) is no number: CASE keeps the cast from seeing it.
        const numeric = `(CASE WHEN jsonb_typeof(c.data -> ${key}) = 'number' THEN ${value}::numeric END)`;
        const operand = param(condition.value, 'numeric');
        const op = { equals: '=', notEquals: '=', greaterThan: '>', lessThan: '<' }[condition.operator];
        const compared = `coalesce(${numeric} ${op} ${operand}, false)`;
        return condition.operator === 'notEquals' ? `NOT ${compared}` : compared;
      }
      case 'DATE': {
        // Dates are stored 'YYYY-MM-DD', which compare as text byte by byte in calendar order.
        const day = `(${value} COLLATE "C")`;
        if (condition.operator === 'withinLastDays') {
          const days = param(condition.value, 'int');
          return `coalesce(${day} BETWEEN to_char(current_date - ${days}, 'YYYY-MM-DD') AND to_char(current_date, 'YYYY-MM-DD'), false)`;
        }
        return `coalesce(${day} ${condition.operator === 'before' ? '<' : '>'} ${param(condition.value, 'text')}, false)`;
      }
      case 'YES_NO':
        return `coalesce(c.data -> ${key} = to_jsonb(${param(condition.value, 'boolean')}), false)`;
    }
    throw new Error('a field condition the compiler does not know');
  };

  const condition = (one: CheckedCondition): string => {
    switch (one.kind) {
      case 'field':
        return field(one);
      case 'domain': {
        const domain = `split_part(address_key(c.email), '@', -1)`;
        switch (one.operator) {
          case 'equals':
            return `${domain} = ${param(one.values[0], 'text')}`;
          case 'notEquals':
            return `${domain} <> ${param(one.values[0], 'text')}`;
          case 'endsWith':
            return `right(${domain}, char_length(${param(one.values[0], 'text')})) = ${param(one.values[0], 'text')}`;
          case 'oneOf':
            return `${domain} = ANY (${param(one.values, 'text[]')})`;
        }
        break;
      }
      case 'subscription': {
        let test: string;
        switch (one.state) {
          case 'subscribed':
            test = `(c.unsubscribed_at IS NULL AND NOT ${isSuppressed('c.email')})`;
            break;
          case 'unsubscribed':
            test = `c.unsubscribed_at IS NOT NULL`;
            break;
          case 'pending':
            // A pending sign-up is not a contact; a contact is pending when it asked to join again by a form
            // (having left) and has not confirmed yet (docs/decisions/segments.md).
            test = `EXISTS (SELECT 1 FROM pending_signups p
                             WHERE p.audience_id = c.audience_id AND address_key(p.email) = address_key(c.email) AND p.expires_at > now())`;
            break;
          case 'suppressed':
            test =
              one.reason === undefined
                ? isSuppressed('c.email')
                : one.reason === 'ERASED'
                  ? `(${ANY_ERASED} AND ${isErased('c.email')})`
                  : `EXISTS (SELECT 1 FROM suppressions s WHERE s.email_lower = address_key(c.email) AND s.reason = ${param(one.reason, 'text')})`;
            break;
        }
        return one.negated ? `NOT ${test}` : test;
      }
      case 'joined': {
        // How the contact came in, as the contact drawer tells it (services/people consentJoin): the newest
        // joining entry of its address in the audience (added by hand, or a form), else an import.
        const joinedBy = (events: string) => `address_key(c.email) IN (
            SELECT k.address_key FROM (SELECT DISTINCT ON (l.address_key) l.address_key, l.event FROM consent_ledger l
                                        WHERE l.audience_id = ${audience} AND l.event IN ${JOINING_EVENTS}
                                        ORDER BY l.address_key, l.id DESC) k
             WHERE k.event IN ${events})`;
        const test =
          one.how === 'added'
            ? joinedBy(`('ADDED')`)
            : one.how === 'form'
              ? joinedBy(`('SUBSCRIBED', 'CONFIRMED')`)
              : `NOT ${joinedBy(JOINING_EVENTS)}`;
        return one.negated ? `NOT (${test})` : test;
      }
      case 'engagement': {
        const at = PERSON[one.what];
        // A person's mails: EXISTS over the contact's jobs, so the planner chooses a semi- or anti-join at the top
        // of an AND, and under an OR or a NOT a subplan hashed once, or index probes of (campaign, contact) when
        // the set would not fit in memory, whichever costs less.
        const reached = (campaigns: string, when: string) =>
          `EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.contact_id = c.id AND j.campaign_id IN (${campaigns}) AND ${when})`;
        switch (one.operator) {
          case 'anyOfLast':
            return reached(lastSent(one.last), `${at} IS NOT NULL`);
          case 'noneOfLast':
            return `NOT ${reached(lastSent(one.last), `${at} IS NOT NULL`)}`;
          case 'allOfLast': {
            // Every one of the last N sent (fewer when fewer were sent); with none sent, nobody opened them all.
            const last = lastSent(one.last);
            return `c.id IN (SELECT j.contact_id FROM campaign_jobs j WHERE j.campaign_id IN (${last}) AND ${at} IS NOT NULL
                              GROUP BY j.contact_id HAVING count(*) = (SELECT count(*) FROM (${last}) n))`;
          }
          case 'since':
            return reached(ofAudience, `${at} >= ${param(one.date, 'date')}`);
          case 'never':
            return `NOT ${reached(ofAudience, `${at} IS NOT NULL`)}`;
        }
        break;
      }
      case 'softBounces':
        // The bounce records of the contact's mails (a job keeps its bounce), counted per contact.
        return `c.id IN (SELECT j.contact_id FROM campaign_jobs j WHERE j.bounce_type = 'SOFT'
                          GROUP BY j.contact_id HAVING count(*) >= ${param(one.atLeast, 'int')})`;
      case 'campaign': {
        const reached = one.what === 'received' ? RECEIVED : `${PERSON[one.what]} IS NOT NULL`;
        const test = `EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = ${param(one.campaignId, 'bigint')} AND j.contact_id = c.id AND ${reached})`;
        return one.negated ? `NOT ${test}` : test;
      }
    }
    throw new Error('a condition the compiler does not know');
  };

  const group = (combinator: 'and' | 'or', rules: string[]): string =>
    rules.length === 0
      ? 'true'
      : rules.length === 1
        ? rules[0]!
        : `(${rules.map((one) => `(${one})`).join(combinator === 'and' ? ' AND ' : ' OR ')})`;
  const isGroup = (one: CheckedCondition | CheckedGroup): one is CheckedGroup => 'combinator' in one;

  const sql = group(
    rule.combinator,
    rule.rules.map((one) => (isGroup(one) ? group(one.combinator, one.rules.map(condition)) : condition(one))),
  );
  return { sql, params };
}
