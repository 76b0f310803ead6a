/**
 * Signed outgoing webhooks (issue 27; docs/decisions/webhooks.md). Admins register endpoints for events; the
 * database's triggers (migration 0034) write one delivery per endpoint in the transaction that records each
 * fact, so no event is lost between a commit and a publish. The worker's poller publishes deliveries that are
 * due (`publishDue`), each endpoint's up to what it has in flight at most, and its consumer puts them in their
 * endpoint's line (`deliver`), which claims them many at a time in one statement, attempts them with a few at once
 * per endpoint (Standard Webhooks headers, signature.ts; a time limit each; a slow endpoint's others wait in the
 * database, not in a consumer) and records their outcomes together, one statement for many: exponential backoff
 * through the due time, FAILED after 24 hours.
 * Delivery is at least once: every copy of a delivery carries the same `webhook-id`. No HTTP routes, AMQP or
 * SQL here.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { WEBHOOK_MESSAGE_DELIVERIES, type webhookQueues } from './queues.js';
import {
  webhookRepository,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliveryStatus,
  type WebhookEndpointRow,
  type WebhookEventType,
} from './repository.js';
import { newSecret, signedHeaders } from './signature.js';
import { checkTarget, guardedLookup, TargetRefused } from './target.js';

export type { DeliveryStatus, WebhookEventType };

/**
 * An endpoint as the activity log names it: by its origin only. A receiver's path often holds its own secret (an n8n
 * webhook's id, a token), which the log, read by every admin, must not show.
 */
const endpointObject = (endpoint: WebhookEndpointRow) => ({
  type: 'webhook' as const,
  id: endpoint.id,
  name: new URL(endpoint.url).origin,
});

export const WEBHOOK_NOT_FOUND = 'Webhook endpoint not found';
export const DELIVERY_NOT_FOUND = 'Webhook delivery not found';
export const NOT_FAILED = 'Only a failed delivery can be re-sent; this one is still being tried or was delivered.';

/** Retries double from the first delay up to this, until the give-up time (24 hours after the event). */
const MAX_RETRY_DELAY_MS = 60 * 60_000;
/** A delivery published and not attempted within this is published again (a lost message, a dead worker, a full line). */
const PUBLISH_LEASE_MS = 30_000;
/** Deliveries leased and published per endpoint and poll, at most. */
const POLL_BATCH = 500;
/**
 * An endpoint has at most this many deliveries per attempt it may run at once in flight (leased by a poller, waiting
 * in lines, being attempted; a few seconds of a fast endpoint's work), across the workers: the poller leases no
 * more. A worker's line for it holds as many, so a backlog is published as fast as its endpoint takes it and no
 * line drops any of it to wait for its lease. (A line is full only when leases ran out while a slow or dead
 * endpoint's deliveries waited: those, dropped, are paced by their lease at no cost to the database.)
 */
const LINE_LENGTH = 250;
/** Deliveries waiting in all lines of one worker, at most. */
const WAITING_MAX = 20_000;
/**
 * An endpoint's line claims its deliveries in one statement for about this long of the endpoint's work at its recent
 * pace (at least one round of its attempts, at most a message's worth), and claims again when half of that is left, so
 * its connections never wait for a claim however long the database takes to answer. A slow or dead endpoint thus
 * claims a round at a time, and a fast one a hundred.
 */
const CLAIM_AHEAD_MS = 1_000;
/** An endpoint's pace before its first answers: an attempt a second, so its first claims are small. */
const FIRST_PACE_MS = 1_000;
/**
 * A claimed delivery starts after the attempts ahead of it in its line (at most the time limit for each round of
 * them) and runs its own; its claim lasts that many time limits and this margin (to record its outcome). Past it,
 * the delivery is due again.
 */
const CLAIM_MARGIN_MS = 10_000;
/** Outcomes are recorded together: when this many are waiting, or this long after the first of them. */
const RECORD_BATCH = 250;
const RECORD_EVERY_MS = 25;
/** An endpoint's connections are closed after this long without an attempt. */
const AGENT_IDLE_MS = 60_000;
/** What an attempt keeps of an error. */
const ERROR_CHARS = 300;

export interface WebhookSettings {
  timeoutMs: number;
  endpointConcurrency: number;
  retryBaseMs: number;
}

export interface WebhookServiceDeps {
  db: Database;
  queue: MessageQueue<typeof webhookQueues>;
  /** Production: HTTPS only and public addresses only, at registration and on every connection. */
  production: boolean;
  settings: WebhookSettings;
  logger: Logger;
  /** The DNS for registration checks (tests hand in their own). */
  resolve?: (host: string) => Promise<string[]>;
}

export interface WebhookEndpointInput {
  url: string;
  events: WebhookEventType[];
  description?: string;
  enabled?: boolean;
}

/** The delay before attempt n+1 after n failed attempts: base, 2·base, 4·base... at most an hour. */
export function retryDelayMs(failedAttempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

export function createWebhookService({ db, queue, production, settings, logger, resolve }: WebhookServiceDeps) {
  const repo = webhookRepository(db);
  /**
   * Connections of their own for each endpoint (kept alive between attempts): two endpoints on one host, such as
   * two paths of one n8n, must not share them, or a dead one would hold the other's. In production each
   * connection's addresses are checked. An endpoint idle for a while gives its connections up.
   */
  const agents = new Map<number, { agent: Agent; idle?: NodeJS.Timeout }>();
  const agentOf = (endpointId: number): Agent => {
    let entry = agents.get(endpointId);
    if (!entry) {
      const agent = new Agent({
        connections: settings.endpointConcurrency,
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
        connect: { timeout: settings.timeoutMs, ...(production ? { lookup: guardedLookup } : {}) },
      });
      agents.set(endpointId, (entry = { agent }));
    }
    clearTimeout(entry.idle);
    entry.idle = undefined;
    return entry.agent;
  };
  const idleAgent = (endpointId: number) => {
    const entry = agents.get(endpointId);
    if (!entry) return;
    entry.idle = setTimeout(() => {
      agents.delete(endpointId);
      paces.delete(endpointId);
      void entry.agent.close().catch(() => undefined);
    }, AGENT_IDLE_MS);
    entry.idle.unref();
  };
  /**
   * Each endpoint's line in this process: deliveries waiting (published, not yet claimed), claimed ones ready to
   * start, attempts running (at most endpointConcurrency), and whether a claim is under way.
   */
  interface Line {
    waiting: number[];
    ready: (ClaimedDelivery & { token: string })[];
    running: number;
    claiming: boolean;
  }
  const lines = new Map<number, Line>();
  let waitingTotal = 0;
  let closing = false;
  const running = new Set<Promise<unknown>>();
  /** Each endpoint's recent time per attempt (a moving average), which sizes its claims. */
  const paces = new Map<number, number>();
  /** Deliveries an endpoint gets through in `ms` at its pace, with its attempts at once. */
  const aheadOf = (endpointId: number, ms: number) =>
    Math.ceil((settings.endpointConcurrency * ms) / Math.max(1, paces.get(endpointId) ?? FIRST_PACE_MS));
  const claimSize = (endpointId: number) =>
    Math.min(WEBHOOK_MESSAGE_DELIVERIES, Math.max(settings.endpointConcurrency, aheadOf(endpointId, CLAIM_AHEAD_MS)));
  /** Outcomes not yet recorded (the next batch), and when it will be. */
  let outcomes: AttemptOutcome[] = [];
  let recordTimer: NodeJS.Timeout | undefined;

  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  };

  const found = <T>(value: T | undefined, message = WEBHOOK_NOT_FOUND): T => {
    if (value === undefined) throw new DomainError('not-found', message);
    return value;
  };

  const checkedUrl = async (url: string): Promise<string> => {
    try {
      return (await checkTarget(url, production, resolve)).toString();
    } catch (error) {
      if (error instanceof TargetRefused) throw new DomainError('invalid', error.message);
      throw error;
    }
  };

  const uniqueEvents = (events: WebhookEventType[]) => [...new Set(events)].sort();

  /** One POST of a delivery; never throws: a failure is its outcome. */
  async function attempt(delivery: ClaimedDelivery) {
    const body = JSON.stringify(delivery.payload);
    const startedAt = new Date();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        headers: { ...signedHeaders(delivery.secret, delivery.messageId, body, startedAt), 'user-agent': 'Mailroom-Webhooks/1' },
        body,
        dispatcher: agentOf(delivery.endpointId),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      status = response.statusCode;
      // The answer's body means nothing to us: a few bytes are read (the connection stays reusable), more are cut off.
      await response.body.dump({ limit: 4096 }).catch(() => undefined);
      if (status < 200 || status > 299) error = `The endpoint answered ${status}`;
    } catch (cause) {
      const err = cause as Error & { code?: string; cause?: Error & { code?: string } };
      const inner = err.cause ?? err;
      error =
        err.name === 'TimeoutError' || err.name === 'AbortError'
          ? `No answer within ${settings.timeoutMs / 1000} s`
          : `${inner.code ? inner.code + ': ' : ''}${inner.message}`.slice(0, ERROR_CHARS);
    }
    return { startedAt, durationMs: Date.now() - startedAt.getTime(), status, error, ok: error === null };
  }

  /**
   * Records the outcomes gathered so far, in one statement. A lost database leaves them to their claims' lease:
   * each delivery is attempted again then, with the same id.
   */
  function recordOutcomes(): Promise<void> {
    clearTimeout(recordTimer);
    recordTimer = undefined;
    const batch = outcomes;
    outcomes = [];
    if (batch.length === 0) return Promise.resolve();
    return track(
      repo.recordAttempts(batch).then(
        (settled) => {
          for (const { id, status } of settled)
            if (status === 'FAILED') logger.warn({ deliveryId: id }, 'webhook delivery failed for good');
        },
        (err: unknown) => {
          logger.warn({ err, deliveries: batch.length }, 'webhook attempts not recorded; the deliveries are tried again after their lease');
        },
      ),
    );
  }

  function noteOutcome(outcome: AttemptOutcome): void {
    outcomes.push(outcome);
    if (outcomes.length >= RECORD_BATCH) void recordOutcomes();
    else recordTimer ??= setTimeout(() => void recordOutcomes(), RECORD_EVERY_MS);
  }

  /** Claims the next deliveries of the line in one statement; a lost database leaves them to their publish lease. */
  function claimMore(endpointId: number, line: Line): void {
    const ids = line.waiting.splice(0, claimSize(endpointId));
    waitingTotal -= ids.length;
    line.claiming = true;
    const token = randomUUID();
    // The last of them starts after the rounds of attempts ahead of it, each within the time limit, then runs its own.
    const rounds = Math.ceil((line.running + line.ready.length + ids.length) / settings.endpointConcurrency) + 1;
    void track(
      repo.claimMany(ids, token, rounds * settings.timeoutMs + CLAIM_MARGIN_MS).then(
        (claimed) => {
          for (const delivery of claimed) line.ready.push({ ...delivery, token });
        },
        (err: unknown) => {
          logger.warn({ err, deliveries: ids.length }, 'webhook deliveries not claimed; they are published again after their lease');
        },
      ),
    ).finally(() => {
      line.claiming = false;
      drain(endpointId, line);
    });
  }

  /** Attempts one claimed delivery and notes its outcome for the next record. */
  function start(endpointId: number, line: Line, delivery: ClaimedDelivery & { token: string }): void {
    line.running++;
    void track(
      attempt(delivery).then((outcome) => {
        paces.set(endpointId, 0.8 * (paces.get(endpointId) ?? FIRST_PACE_MS) + 0.2 * outcome.durationMs);
        noteOutcome({
          ...outcome,
          id: delivery.id,
          token: delivery.token,
          retryInMs: retryDelayMs(delivery.attempts + 1, settings.retryBaseMs),
        });
      }),
    ).finally(() => {
      line.running--;
      drain(endpointId, line);
    });
  }

  /**
   * Starts attempts from the line's claimed deliveries while it has room, and claims more before they run out. A
   * line with nothing left goes, and its endpoint's connections after a while.
   */
  function drain(endpointId: number, line: Line): void {
    if (!closing) {
      while (line.running < settings.endpointConcurrency && line.ready.length > 0) start(endpointId, line, line.ready.shift()!);
      if (
        !line.claiming &&
        line.waiting.length > 0 &&
        line.ready.length < Math.max(settings.endpointConcurrency, claimSize(endpointId) / 2)
      )
        claimMore(endpointId, line);
    }
    if (line.running === 0 && !line.claiming && line.ready.length === 0 && line.waiting.length === 0 && lines.get(endpointId) === line) {
      lines.delete(endpointId);
      idleAgent(endpointId);
    }
  }

  return {
    async list(): Promise<WebhookEndpointRow[]> {
      return repo.listEndpoints();
    },

    async get(id: number): Promise<WebhookEndpointRow> {
      return found(await repo.getEndpoint(id));
    },

    /** The endpoint with its secret: shown at creation, and to an admin who asks again. */
    async create(input: WebhookEndpointInput, by: { email: string }): Promise<WebhookEndpointRow & { secret: string }> {
      const url = await checkedUrl(input.url);
      const secret = newSecret();
      const endpoint = await db.transaction(async (tx) => {
        const created = await repo.createEndpoint(tx, {
          url,
          events: uniqueEvents(input.events),
          description: input.description?.trim() ?? '',
          enabled: input.enabled ?? true,
          secret,
          by: by.email,
        });
        await recordActivity(tx, {
          actor: by,
          kind: 'webhook-create',
          object: endpointObject(created),
          details: { events: created.events },
        });
        return created;
      });
      return { ...endpoint, secret };
    },

    async update(id: number, input: WebhookEndpointInput, actor: Actor): Promise<WebhookEndpointRow> {
      const url = await checkedUrl(input.url);
      const current = found(await repo.getEndpoint(id));
      return found(
        await db.transaction(async (tx) => {
          const updated = await repo.updateEndpoint(tx, id, {
            url,
            events: uniqueEvents(input.events),
            description: input.description?.trim() ?? current.description,
            enabled: input.enabled ?? current.enabled,
          });
          if (updated)
            await recordActivity(tx, {
              actor,
              kind: 'webhook-change',
              object: endpointObject(updated),
              details: { events: updated.events, enabled: updated.enabled },
            });
          return updated;
        }),
      );
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = found(await repo.deleteEndpoint(tx, id));
        await recordActivity(tx, { actor, kind: 'webhook-delete', object: endpointObject(removed) });
      });
    },

    async secret(id: number): Promise<{ secret: string }> {
      return { secret: found(await repo.secretOf(id)) };
    },

    async rotateSecret(id: number, actor: Actor): Promise<{ secret: string }> {
      const secret = newSecret();
      await db.transaction(async (tx) => {
        const endpoint = found(await repo.getEndpoint(id, tx));
        if (!(await repo.rotateSecret(tx, id, secret))) throw new DomainError('not-found', WEBHOOK_NOT_FOUND);
        await recordActivity(tx, { actor, kind: 'webhook-rotate-secret', object: endpointObject(endpoint) });
      });
      return { secret };
    },

    async deliveries(endpointId: number, page: { status?: DeliveryStatus; before?: number; limit: number }) {
      found(await repo.getEndpoint(endpointId));
      const items = await repo.listDeliveries(endpointId, { ...page, limit: page.limit + 1 });
      const more = items.length > page.limit;
      const shown = items.slice(0, page.limit);
      return { items: shown, nextBefore: more ? shown[shown.length - 1]!.id : null };
    },

    async delivery(id: number) {
      return found(await repo.getDelivery(id), DELIVERY_NOT_FOUND);
    },

    /** A failed delivery tried again, with the same id, for another 24 hours. */
    async resend(id: number): Promise<void> {
      const resent = await db.transaction((tx) => repo.resend(tx, id));
      if (!resent) {
        found(await repo.getDelivery(id), DELIVERY_NOT_FOUND);
        throw new DomainError('conflict', NOT_FAILED);
      }
      // Published at once; if the broker is away, the poller publishes it when its lease-free due time comes.
      await queue.publish('webhook-delivery', { deliveryIds: [id], endpointId: resent.endpointId }).catch(() => undefined);
    },

    /**
     * The poller (worker, every few hundred ms): publishes the deliveries due. One the broker did not take is
     * given back at once for the next poll; one published and never attempted is due again after its lease.
     */
    async publishDue(): Promise<number> {
      const due = await repo.leaseDue(POLL_BATCH, LINE_LENGTH * settings.endpointConcurrency, PUBLISH_LEASE_MS);
      // One message per endpoint and hundred deliveries.
      const byEndpoint = new Map<number, number[]>();
      for (const delivery of due) {
        const ids = byEndpoint.get(delivery.endpointId);
        if (ids) ids.push(delivery.id);
        else byEndpoint.set(delivery.endpointId, [delivery.id]);
      }
      const messages = [...byEndpoint].flatMap(([endpointId, ids]) =>
        Array.from({ length: Math.ceil(ids.length / WEBHOOK_MESSAGE_DELIVERIES) }, (_, i) => ({
          endpointId,
          deliveryIds: ids.slice(i * WEBHOOK_MESSAGE_DELIVERIES, (i + 1) * WEBHOOK_MESSAGE_DELIVERIES),
        })),
      );
      const failed: number[] = [];
      await Promise.all(
        messages.map((message) =>
          queue.publish('webhook-delivery', message).catch(() => {
            failed.push(...message.deliveryIds);
          }),
        ),
      );
      if (failed.length > 0) {
        logger.warn({ deliveries: failed.length }, 'webhook deliveries not published; the next poll tries again');
        await repo.unlease(failed).catch(() => undefined);
      }
      return due.length - failed.length;
    },

    /**
     * The consumer: takes deliveries into its endpoint's line in this worker and acks at once. The database,
     * not the message, keeps the delivery: one never attempted (a worker that died with it in line) is due again
     * when its lease runs out. A line that is full (a slow or dead endpoint) leaves the delivery to its lease, so it
     * holds no consumer and no other endpoint's deliveries.
     */
    async deliver({ deliveryIds, endpointId }: { deliveryIds: number[]; endpointId: number }): Promise<void> {
      let line = lines.get(endpointId);
      if (!line) lines.set(endpointId, (line = { waiting: [], ready: [], running: 0, claiming: false }));
      const length = LINE_LENGTH * settings.endpointConcurrency;
      for (const deliveryId of deliveryIds) {
        // A full line drops the message and writes nothing: the delivery stays leased and comes back when its lease
        // runs out, which paces a backlog to what the endpoint takes at no cost to the database.
        if (closing || line.waiting.length >= length || waitingTotal >= WAITING_MAX) break;
        line.waiting.push(deliveryId);
        waitingTotal++;
      }
      drain(endpointId, line);
    },

    async close(): Promise<void> {
      closing = true;
      // Attempts under way finish; then every outcome is recorded, and claims not attempted are given back for
      // another worker's next poll (or, the database away, their lease brings them back).
      while (running.size > 0) await Promise.allSettled([...running]);
      await recordOutcomes();
      for (const line of lines.values()) {
        const byToken = new Map<string, number[]>();
        for (const delivery of line.ready.splice(0)) byToken.set(delivery.token, [...(byToken.get(delivery.token) ?? []), delivery.id]);
        for (const [token, ids] of byToken) await repo.releaseClaims(ids, token).catch(() => undefined);
      }
      lines.clear();
      await Promise.allSettled(
        [...agents.values()].map((entry) => {
          clearTimeout(entry.idle);
          return entry.agent.close();
        }),
      );
      agents.clear();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
