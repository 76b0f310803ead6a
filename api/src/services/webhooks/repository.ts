/**
 * Every statement of outgoing webhooks (migration 0034): the endpoints, and the deliveries the triggers write
 * as the facts are recorded. A delivery is PENDING until an attempt succeeds (DELIVERED) or its time runs out
 * (FAILED). Two marks keep the work single: `lease_until` (published or being attempted: the poller leaves it
 * alone until then) and `claim_token` (the attempts claimed together and running now: a second message for one of
 * them does nothing).
 */
import type { Database, Sql } from '../../db/database.js';

export type WebhookEventType =
  | 'contact.subscribed'
  | 'contact.confirmed'
  | 'contact.unsubscribed'
  | 'contact.erased'
  | 'contact.bounced'
  | 'contact.complained'
  | 'campaign.sent'
  | 'import.finished';

export interface WebhookEndpointRow {
  id: number;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface DeliveryRow {
  id: number;
  messageId: string;
  endpointId: number;
  eventType: WebhookEventType;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface AttemptRow {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  error: string | null;
}

/** What an attempt needs: the delivery's id and body, and where and how to sign. */
export interface ClaimedDelivery {
  id: number;
  messageId: string;
  endpointId: number;
  url: string;
  secret: string;
  payload: unknown;
  attempts: number;
  createdAt: Date;
  giveUpAt: Date;
}

/** One attempt's outcome, for the claim `token` it was made under; `retryInMs` is the wait before the next one. */
export interface AttemptOutcome {
  id: number;
  token: string;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  error: string | null;
  ok: boolean;
  retryInMs: number;
}

const ENDPOINT_COLUMNS = `id::int AS id, url, events, description, enabled, created_at AS "createdAt", updated_at AS "updatedAt"`;
const DELIVERY_COLUMNS = `id::int AS id, message_id AS "messageId", endpoint_id::int AS "endpointId", event_type AS "eventType", status,
  attempts, last_status AS "lastStatus", last_error AS "lastError",
  CASE WHEN status = 'PENDING' THEN next_attempt_at END AS "nextAttemptAt", delivered_at AS "deliveredAt", created_at AS "createdAt"`;

export function webhookRepository(db: Database) {
  return {
    async listEndpoints(): Promise<WebhookEndpointRow[]> {
      const { rows } = await db.query<WebhookEndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY id`);
      return rows;
    },

    async getEndpoint(id: number, sql: Sql = db): Promise<WebhookEndpointRow | undefined> {
      const { rows } = await sql.query<WebhookEndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]);
      return rows[0];
    },

    async secretOf(id: number): Promise<string | undefined> {
      const { rows } = await db.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [id]);
      return rows[0]?.secret;
    },

    async createEndpoint(
      tx: Sql,
      endpoint: { url: string; events: string[]; description: string; enabled: boolean; secret: string; by: string },
    ): Promise<WebhookEndpointRow> {
      const { rows } = await tx.query<WebhookEndpointRow>(
        `INSERT INTO webhook_endpoints (url, events, description, enabled, secret, created_by_email)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ENDPOINT_COLUMNS}`,
        [endpoint.url, endpoint.events, endpoint.description, endpoint.enabled, endpoint.secret, endpoint.by],
      );
      return rows[0]!;
    },

    async updateEndpoint(
      tx: Sql,
      id: number,
      change: { url: string; events: string[]; description: string; enabled: boolean },
    ): Promise<WebhookEndpointRow | undefined> {
      const { rows } = await tx.query<WebhookEndpointRow>(
        `UPDATE webhook_endpoints SET url = $2, events = $3, description = $4, enabled = $5, updated_at = now()
          WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
        [id, change.url, change.events, change.description, change.enabled],
      );
      return rows[0];
    },

    async rotateSecret(tx: Sql, id: number, secret: string): Promise<boolean> {
      const { rowCount } = await tx.query('UPDATE webhook_endpoints SET secret = $2, updated_at = now() WHERE id = $1', [id, secret]);
      return rowCount === 1;
    },

    /** Its deliveries and their attempts go with it (ON DELETE CASCADE). */
    async deleteEndpoint(tx: Sql, id: number): Promise<WebhookEndpointRow | undefined> {
      const { rows } = await tx.query<WebhookEndpointRow>(`DELETE FROM webhook_endpoints WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`, [
        id,
      ]);
      return rows[0];
    },

    /** An endpoint's deliveries, newest first, a keyset page before `before`. */
    async listDeliveries(endpointId: number, page: { status?: DeliveryStatus; before?: number; limit: number }): Promise<DeliveryRow[]> {
      const { rows } = await db.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
          WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::bigint IS NULL OR id < $3)
          ORDER BY id DESC LIMIT $4`,
        [endpointId, page.status ?? null, page.before ?? null, page.limit],
      );
      return rows;
    },

    async getDelivery(id: number): Promise<(DeliveryRow & { payload: unknown; attemptLog: AttemptRow[] }) | undefined> {
      const { rows } = await db.query<DeliveryRow & { payload: unknown }>(
        `SELECT ${DELIVERY_COLUMNS}, payload FROM webhook_deliveries WHERE id = $1`,
        [id],
      );
      const delivery = rows[0];
      if (!delivery) return undefined;
      const attempts = await db.query<AttemptRow>(
        `SELECT attempt, started_at AS "startedAt", duration_ms AS "durationMs", status, error
           FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`,
        [id],
      );
      return { ...delivery, attemptLog: attempts.rows };
    },

    /** A failed delivery due again now, with a fresh 24 hours; false when it is not FAILED. */
    async resend(tx: Sql, id: number): Promise<{ endpointId: number } | undefined> {
      const { rows } = await tx.query<{ endpointId: number }>(
        `UPDATE webhook_deliveries
            SET status = 'PENDING', next_attempt_at = now(), give_up_at = now() + interval '24 hours', lease_until = NULL, claim_token = NULL
          WHERE id = $1 AND status = 'FAILED' RETURNING endpoint_id::int AS "endpointId"`,
        [id],
      );
      return rows[0];
    },

    /**
     * The poller: each endpoint's pending deliveries due now and not leased, oldest due first, up to `limit`, and up
     * to what keeps the endpoint's leased deliveries (published or being attempted, by any worker) at `inFlight` at
     * most; leased for `leaseMs` so no other poller publishes them meanwhile. SKIP LOCKED: pollers of several
     * workers share. A backlog is thus published as fast as its endpoint takes it, never faster (a line that had
     * no room would leave it to its lease), and each endpoint has its own share of every poll. A claim whose lease
     * ran out (its outcome never recorded: the database was away, the worker died) is lost with it: the delivery is
     * claimable again, and that attempt's outcome, should it come, changes nothing.
     */
    async leaseDue(limit: number, inFlight: number, leaseMs: number): Promise<{ id: number; endpointId: number }[]> {
      const { rows } = await db.query<{ id: number; endpointId: number }>(
        `UPDATE webhook_deliveries d SET lease_until = now() + $3 * interval '1 millisecond', claim_token = NULL
           FROM (SELECT due.id FROM webhook_endpoints e
                   CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM webhook_deliveries l
                                        WHERE l.endpoint_id = e.id AND l.status = 'PENDING' AND l.lease_until IS NOT NULL
                                          AND l.lease_until > now()) leased
                   CROSS JOIN LATERAL (SELECT w.id FROM webhook_deliveries w
                                        WHERE w.endpoint_id = e.id AND w.status = 'PENDING' AND w.next_attempt_at <= now()
                                          AND (w.lease_until IS NULL OR w.lease_until < now())
                                        ORDER BY w.next_attempt_at LIMIT GREATEST(0, LEAST($1, $2 - leased.n))
                                        FOR UPDATE OF w SKIP LOCKED) due) picked
          WHERE d.id = picked.id
          RETURNING d.id::int AS id, d.endpoint_id::int AS "endpointId"`,
        [limit, inFlight, leaseMs],
      );
      return rows;
    },

    /** Leases given up at once (their publish failed): the next poll takes them again. */
    async unlease(ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await db.query(`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ANY ($1::bigint[]) AND claim_token IS NULL`, [ids]);
    },

    /**
     * Takes pending deliveries for their attempts, in one statement, under one `token`, for `leaseMs`. Those not
     * pending (delivered by an earlier copy of the message) or held by another attempt now are left out, and so
     * are rows another statement has locked this instant (SKIP LOCKED: a claim never waits, so it never joins a
     * deadlock; a row skipped comes back with its publish lease). Oldest first.
     */
    async claimMany(ids: number[], token: string, leaseMs: number): Promise<ClaimedDelivery[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<ClaimedDelivery>(
        `UPDATE webhook_deliveries d SET claim_token = $2, lease_until = now() + $3 * interval '1 millisecond'
           FROM (SELECT id FROM webhook_deliveries
                  WHERE id = ANY ($1::bigint[]) AND status = 'PENDING' AND (claim_token IS NULL OR lease_until < now())
                  ORDER BY id FOR UPDATE SKIP LOCKED) free, webhook_endpoints e
          WHERE d.id = free.id AND e.id = d.endpoint_id
          RETURNING d.id::int AS id, d.message_id AS "messageId", d.endpoint_id::int AS "endpointId", e.url, e.secret, d.payload,
                    d.attempts, d.created_at AS "createdAt", d.give_up_at AS "giveUpAt"`,
        [ids, token, leaseMs],
      );
      return rows.sort((a, b) => a.id - b.id);
    },

    /** Claims given back unattempted (a worker stopping): the next poll publishes them again. */
    async releaseClaims(ids: number[], token: string): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        `UPDATE webhook_deliveries SET claim_token = NULL, lease_until = NULL WHERE id = ANY ($1::bigint[]) AND claim_token = $2`,
        [ids, token],
      );
    },

    /**
     * Attempts' outcomes, each with its log line, in one statement (atomic by itself): DELIVERED; or due again
     * after its `retryInMs`; or FAILED when that would pass its give-up time. An outcome whose claim was lost (its
     * lease ran out and another attempt took the delivery) changes nothing. The rows are locked in id order
     * first, as the claims take them, so two statements never wait on each other in a circle. Returns the
     * deliveries settled, with their new status.
     */
    async recordAttempts(outcomes: AttemptOutcome[]): Promise<{ id: number; status: DeliveryStatus }[]> {
      if (outcomes.length === 0) return [];
      const { rows } = await db.query<{ id: number; status: DeliveryStatus }>(
        `WITH outcome AS (
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::boolean[], $6::bigint[], $7::timestamptz[], $8::int[])
             AS o(id, token, http_status, error, ok, retry_ms, started_at, duration_ms)),
         locked AS (
           SELECT d.id FROM webhook_deliveries d JOIN outcome o ON o.id = d.id AND d.claim_token = o.token
            ORDER BY d.id FOR UPDATE OF d),
         settled AS (
           UPDATE webhook_deliveries d
              SET attempts = d.attempts + 1, last_status = o.http_status, last_error = o.error, claim_token = NULL, lease_until = NULL,
                  status = CASE WHEN o.ok THEN 'DELIVERED'
                                WHEN now() + o.retry_ms * interval '1 millisecond' > d.give_up_at THEN 'FAILED' ELSE 'PENDING' END,
                  delivered_at = CASE WHEN o.ok THEN now() END,
                  next_attempt_at = CASE WHEN o.ok THEN d.next_attempt_at ELSE now() + o.retry_ms * interval '1 millisecond' END
             FROM outcome o
            WHERE d.id = o.id AND d.claim_token = o.token AND d.id IN (SELECT id FROM locked)
            RETURNING d.id, d.attempts, d.status, o.started_at, o.duration_ms, o.http_status, o.error),
         logged AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status, error)
           SELECT id, attempts, started_at, duration_ms, http_status, error FROM settled)
         SELECT id::int AS id, status FROM settled`,
        [
          outcomes.map((o) => o.id),
          outcomes.map((o) => o.token),
          outcomes.map((o) => o.status),
          outcomes.map((o) => o.error),
          outcomes.map((o) => o.ok),
          outcomes.map((o) => o.retryInMs),
          outcomes.map((o) => o.startedAt),
          outcomes.map((o) => o.durationMs),
        ],
      );
      return rows;
    },
  };
}

/**
 * An erasure (people/erasure-repository.ts) takes the address out of every delivery still kept, in its own
 * transaction: what was sent stays sent, the log no longer names the person.
 */
export async function eraseFromDeliveries(tx: Sql, key: string, erasedKey: string): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET address_key = $2, last_error = NULL,
            payload = CASE WHEN payload->'data' ? 'email' THEN jsonb_set(payload #- '{data,message}', '{data,email}', to_jsonb($2::text))
                           ELSE payload END
      WHERE address_key = $1`,
    [key, erasedKey],
  );
}

export type WebhookRepository = ReturnType<typeof webhookRepository>;
