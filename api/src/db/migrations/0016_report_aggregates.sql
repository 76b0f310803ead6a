-- The report's overview, timeline and deliverability by domain (an addition to the spec), read from
-- aggregates kept as jobs move and hits arrive, never by scanning jobs or hits when the page asks:
--  - campaign_hourly_counts: per campaign and hour (UTC), the mails handed to SES (sent_at) and the
--    open and click hits, people and machines apart. A hit re-marked as a machine's later (a scanner's
--    burst found after the fact, the hidden link) moves from the human to the machine column;
--  - campaign_domain_counts: per campaign and recipient domain (the job's address after its last '@',
--    lower case), the jobs sent, delivered, bounced hard and soft, complained, opened and clicked by a
--    person. Summed over its domains it is also the campaign's complaints;
--  - the unsubscribes of a campaign are its UNSUBSCRIBE suppressions (tracking/repository.ts records
--    the campaign), counted from a partial index.
-- Statement-level triggers over the transition tables, as migration 0006's counts: one pass however
-- many rows a statement moves, in its own transaction, so a snapshot sees aggregates that agree with
-- its rows. Lock order as in 0006: campaign rows first (id order), then the aggregate rows in key
-- order. A statement that re-marks hits and then moves their jobs must lock those jobs first (as
-- record_tracking_hits does), or it takes the campaign row before the jobs.
CREATE TABLE campaign_hourly_counts (
  campaign_id    bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  hour           timestamptz NOT NULL,                                 -- date_trunc('hour', ..., 'UTC')
  sent           bigint NOT NULL,
  opens_human    bigint NOT NULL,
  opens_machine  bigint NOT NULL,
  clicks_human   bigint NOT NULL,
  clicks_machine bigint NOT NULL,
  PRIMARY KEY (campaign_id, hour)
);

CREATE TABLE campaign_domain_counts (
  campaign_id   bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  domain        text NOT NULL,
  sent          bigint NOT NULL,                                       -- SENT_WAIT_ACK or SENT_SUCCESS, as jobsSent
  delivered     bigint NOT NULL,                                       -- SENT_SUCCESS
  bounced_hard  bigint NOT NULL,
  bounced_soft  bigint NOT NULL,
  complaints    bigint NOT NULL,
  opened_human  bigint NOT NULL,
  clicked_human bigint NOT NULL,
  PRIMARY KEY (campaign_id, domain)
);

CREATE INDEX suppressions_unsubscribed_campaign ON suppressions (campaign_id) WHERE reason = 'UNSUBSCRIBE';

-- A job's recipient domain: after the address's last '@', lower case, at most 255 characters.
CREATE FUNCTION recipient_domain(email text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN left(lower(split_part(email, '@', -1)), 255);

CREATE FUNCTION campaign_hourly_counts_add(delta campaign_hourly_counts[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_hourly_counts AS k (campaign_id, hour, sent, opens_human, opens_machine, clicks_human, clicks_machine)
  SELECT d.campaign_id, d.hour, d.sent, d.opens_human, d.opens_machine, d.clicks_human, d.clicks_machine FROM unnest(delta) d
   ORDER BY d.campaign_id, d.hour
  ON CONFLICT (campaign_id, hour) DO UPDATE
     SET sent = k.sent + excluded.sent, opens_human = k.opens_human + excluded.opens_human,
         opens_machine = k.opens_machine + excluded.opens_machine, clicks_human = k.clicks_human + excluded.clicks_human,
         clicks_machine = k.clicks_machine + excluded.clicks_machine;
END $$;

CREATE FUNCTION campaign_domain_counts_add(delta campaign_domain_counts[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_domain_counts AS k (campaign_id, domain, sent, delivered, bounced_hard, bounced_soft, complaints,
                                           opened_human, clicked_human)
  SELECT d.campaign_id, d.domain, d.sent, d.delivered, d.bounced_hard, d.bounced_soft, d.complaints, d.opened_human,
         d.clicked_human FROM unnest(delta) d
   ORDER BY d.campaign_id, d.domain
  ON CONFLICT (campaign_id, domain) DO UPDATE
     SET sent = k.sent + excluded.sent, delivered = k.delivered + excluded.delivered,
         bounced_hard = k.bounced_hard + excluded.bounced_hard, bounced_soft = k.bounced_soft + excluded.bounced_soft,
         complaints = k.complaints + excluded.complaints, opened_human = k.opened_human + excluded.opened_human,
         clicked_human = k.clicked_human + excluded.clicked_human;
END $$;

-- A statement's moves over its transition tables: each new row counts 1, each old row -1 (an UPDATE
-- gives both), so a row whose counted columns did not change cancels out. One query text for the
-- INSERT and the UPDATE triggers (EXECUTE sees the transition tables too).
CREATE FUNCTION transition_moves(columns text, op text, new_table text, old_table text) RETURNS text LANGUAGE sql IMMUTABLE
RETURN CASE op WHEN 'INSERT' THEN format('SELECT %s, 1 AS n FROM %I', columns, new_table)
               ELSE format('SELECT %1$s, 1 AS n FROM %2$I UNION ALL SELECT %1$s, -1 FROM %3$I', columns, new_table, old_table) END;

-- Jobs: sent per hour (sent_at), and the domain counts. Both arrays are grouped by their key.
CREATE FUNCTION campaign_jobs_outcome_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hourly campaign_hourly_counts[];
  domains campaign_domain_counts[];
BEGIN
  EXECUTE format($q$
    WITH moves AS (%s)
    SELECT (SELECT array_agg(row(campaign_id, hour, sent, 0, 0, 0, 0)::campaign_hourly_counts)
              FROM (SELECT campaign_id, date_trunc('hour', sent_at, 'UTC') AS hour, sum(n) AS sent
                      FROM moves WHERE sent_at IS NOT NULL GROUP BY 1, 2 HAVING sum(n) <> 0) h),
           (SELECT array_agg(row(campaign_id, domain, sent, delivered, bounced_hard, bounced_soft, complaints, opened_human,
                                 clicked_human)::campaign_domain_counts)
              FROM (SELECT campaign_id, recipient_domain(email) AS domain,
                           coalesce(sum(n) FILTER (WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')), 0) AS sent,
                           coalesce(sum(n) FILTER (WHERE status = 'SENT_SUCCESS'), 0) AS delivered,
                           coalesce(sum(n) FILTER (WHERE bounce_type = 'HARD'), 0) AS bounced_hard,
                           coalesce(sum(n) FILTER (WHERE bounce_type = 'SOFT'), 0) AS bounced_soft,
                           coalesce(sum(n) FILTER (WHERE complained), 0) AS complaints,
                           coalesce(sum(n) FILTER (WHERE human_opened), 0) AS opened_human,
                           coalesce(sum(n) FILTER (WHERE human_clicked), 0) AS clicked_human
                      FROM moves
                     WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS') OR bounce_type IS NOT NULL OR complained
                        OR human_opened OR human_clicked
                     GROUP BY 1, 2) d
             WHERE (sent, delivered, bounced_hard, bounced_soft, complaints, opened_human, clicked_human) <> (0, 0, 0, 0, 0, 0, 0))
    $q$, transition_moves(
      'campaign_id, email, status, sent_at, bounce_type, complaint_type IS NOT NULL AS complained,
       human_opened_at IS NOT NULL AS human_opened, human_clicked_at IS NOT NULL AS human_clicked',
      TG_OP, 'new_jobs', 'old_jobs'))
    INTO hourly, domains;
  PERFORM campaign_hourly_counts_add(hourly);
  PERFORM campaign_domain_counts_add(domains);
  RETURN NULL;
END $$;

-- Hits: opens and clicks per hour, people and machines apart (an UPDATE re-marks them).
CREATE FUNCTION tracking_events_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hourly campaign_hourly_counts[];
BEGIN
  EXECUTE format($q$
    WITH moves AS (%s)
    SELECT array_agg(row(campaign_id, hour, 0, opens_human, opens_machine, clicks_human, clicks_machine)::campaign_hourly_counts)
      FROM (SELECT campaign_id, date_trunc('hour', created_at, 'UTC') AS hour,
                   coalesce(sum(n) FILTER (WHERE kind = 'OPEN' AND NOT machine), 0) AS opens_human,
                   coalesce(sum(n) FILTER (WHERE kind = 'OPEN' AND machine), 0) AS opens_machine,
                   coalesce(sum(n) FILTER (WHERE kind = 'CLICK' AND NOT machine), 0) AS clicks_human,
                   coalesce(sum(n) FILTER (WHERE kind = 'CLICK' AND machine), 0) AS clicks_machine
              FROM moves GROUP BY 1, 2) h
     WHERE (opens_human, opens_machine, clicks_human, clicks_machine) <> (0, 0, 0, 0)
    $q$, transition_moves('campaign_id, created_at, kind, machine', TG_OP, 'new_events', 'old_events'))
    INTO hourly;
  PERFORM campaign_hourly_counts_add(hourly);
  RETURN NULL;
END $$;

-- Jobs and hits are only deleted with their campaign (ON DELETE CASCADE), which takes its aggregates along.
CREATE TRIGGER campaign_jobs_outcome_insert AFTER INSERT ON campaign_jobs
  REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_outcome_counted();
CREATE TRIGGER campaign_jobs_outcome_update AFTER UPDATE ON campaign_jobs
  REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_outcome_counted();
CREATE TRIGGER tracking_events_count_insert AFTER INSERT ON tracking_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION tracking_events_counted();
CREATE TRIGGER tracking_events_count_update AFTER UPDATE ON tracking_events
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION tracking_events_counted();

-- The jobs and hits recorded before this migration.
INSERT INTO campaign_hourly_counts (campaign_id, hour, sent, opens_human, opens_machine, clicks_human, clicks_machine)
SELECT campaign_id, hour, sum(sent), sum(opens_human), sum(opens_machine), sum(clicks_human), sum(clicks_machine)
  FROM (SELECT campaign_id, date_trunc('hour', sent_at, 'UTC') AS hour, count(*) AS sent, 0 AS opens_human, 0 AS opens_machine,
               0 AS clicks_human, 0 AS clicks_machine
          FROM campaign_jobs WHERE sent_at IS NOT NULL GROUP BY 1, 2
        UNION ALL
        SELECT campaign_id, date_trunc('hour', created_at, 'UTC'), 0, count(*) FILTER (WHERE kind = 'OPEN' AND NOT machine),
               count(*) FILTER (WHERE kind = 'OPEN' AND machine), count(*) FILTER (WHERE kind = 'CLICK' AND NOT machine),
               count(*) FILTER (WHERE kind = 'CLICK' AND machine)
          FROM tracking_events GROUP BY 1, 2) m
 GROUP BY 1, 2;

INSERT INTO campaign_domain_counts (campaign_id, domain, sent, delivered, bounced_hard, bounced_soft, complaints, opened_human, clicked_human)
SELECT campaign_id, recipient_domain(email), count(*) FILTER (WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')),
       count(*) FILTER (WHERE status = 'SENT_SUCCESS'), count(*) FILTER (WHERE bounce_type = 'HARD'),
       count(*) FILTER (WHERE bounce_type = 'SOFT'), count(*) FILTER (WHERE complaint_type IS NOT NULL),
       count(*) FILTER (WHERE human_opened_at IS NOT NULL), count(*) FILTER (WHERE human_clicked_at IS NOT NULL)
  FROM campaign_jobs
 WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS') OR bounce_type IS NOT NULL OR complaint_type IS NOT NULL
    OR human_opened_at IS NOT NULL OR human_clicked_at IS NOT NULL
 GROUP BY 1, 2;
