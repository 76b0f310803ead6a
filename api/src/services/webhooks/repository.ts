/**
 * Every statement of outgoing webhooks (migration 0034): the endpoints, and the deliveries the triggers write
 * as the facts are recorded. A delivery is PENDING until an attempt succeeds (DELIVERED) or its time runs out
 * (FAILED). Two marks keep the work single: `lease_until` (published or being attempted: the poller leaves it
 * alone until then) and `claim_token` (the attempt running now: a second message for it does nothing).
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
     * The poller: up to `limit` pending deliveries due now and not leased, oldest due first, leased for
     * `leaseMs` so no other poller publishes them meanwhile. SKIP LOCKED: pollers of several workers share.
     */
    async leaseDue(limit: number, leaseMs: number): Promise<{ id: number; endpointId: number }[]> {
      const { rows } = await db.query<{ id: number; endpointId: number }>(
        `UPDATE webhook_deliveries d SET lease_until = now() + $2 * interval '1 millisecond'
           FROM (SELECT id FROM webhook_deliveries
                  WHERE status = 'PENDING' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
                  ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
          WHERE d.id = due.id
          RETURNING d.id::int AS id, d.endpoint_id::int AS "endpointId"`,
        [limit, leaseMs],
      );
      return rows;
    },

    /** Leases given up at once (their publish failed): the next poll takes them again. */
    async unlease(ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await db.query(`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ANY ($1::bigint[]) AND claim_token IS NULL`, [ids]);
    },

    /**
     * Takes a pending delivery for one attempt, for `leaseMs`. Undefined when it is not pending (delivered by
     * an earlier copy of the message) or another attempt holds it now.
     */
    async claim(id: number, token: string, leaseMs: number): Promise<ClaimedDelivery | undefined> {
      const { rows } = await db.query<ClaimedDelivery>(
        `UPDATE webhook_deliveries d SET claim_token = $2, lease_until = now() + $3 * interval '1 millisecond'
           FROM webhook_endpoints e
          WHERE d.id = $1 AND e.id = d.endpoint_id AND d.status = 'PENDING'
            AND (d.claim_token IS NULL OR d.lease_until < now())
          RETURNING d.id::int AS id, d.message_id AS "messageId", d.endpoint_id::int AS "endpointId", e.url, e.secret, d.payload,
                    d.attempts, d.created_at AS "createdAt", d.give_up_at AS "giveUpAt"`,
        [id, token, leaseMs],
      );
      return rows[0];
    },

    /**
     * One attempt's outcome, with its log line, in one transaction: DELIVERED; or due again after
     * `retryInMs`; or FAILED when that would pass its give-up time. Nothing when the claim was lost.
     */
    async recordAttempt(
      id: number,
      token: string,
      attempt: { startedAt: Date; durationMs: number; status: number | null; error: string | null; ok: boolean; retryInMs: number },
    ): Promise<DeliveryStatus | undefined> {
      // One statement (atomic by itself): the outcome and its log line.
      const { rows } = await db.query<{ status: DeliveryStatus }>(
        `WITH settled AS (
           UPDATE webhook_deliveries
              SET attempts = attempts + 1, last_status = $3, last_error = $4, claim_token = NULL, lease_until = NULL,
                  status = CASE WHEN $5 THEN 'DELIVERED'
                                WHEN now() + $6 * interval '1 millisecond' > give_up_at THEN 'FAILED' ELSE 'PENDING' END,
                  delivered_at = CASE WHEN $5 THEN now() END,
                  next_attempt_at = CASE WHEN $5 THEN next_attempt_at ELSE now() + $6 * interval '1 millisecond' END
            WHERE id = $1 AND claim_token = $2
            RETURNING id, attempts, status),
         logged AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status, error)
           SELECT id, attempts, $7, $8, $3, $4 FROM settled)
         SELECT status FROM settled`,
        [id, token, attempt.status, attempt.error, attempt.ok, attempt.retryInMs, attempt.startedAt, attempt.durationMs],
      );
      return rows[0]?.status;
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
