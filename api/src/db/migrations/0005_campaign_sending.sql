-- Campaign sending (docs/architecture.md): the send rate shared by every worker process.

-- One row: the schedule of send slots of the whole deployment (services/sending/send-rate.ts).
-- A generic cell rate algorithm: next_slot_at is when the next mail may go; a worker reserves a
-- block of slots spaced 1/rate apart and sends each at its time, so all workers together never
-- go faster than the rate, whichever second one looks at. After SES throttles, the pace drops to
-- `slowdown` of the rate and recovers linearly in a minute. quota_left is the daily quota left
-- as last read from SES, less what was reserved since (NULL: not known yet, or no limit).
CREATE TABLE send_rate (
  id             boolean PRIMARY KEY DEFAULT true CHECK (id),
  next_slot_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  slowdown       double precision NOT NULL DEFAULT 1 CHECK (slowdown > 0 AND slowdown <= 1),
  slowed_at      timestamptz NOT NULL DEFAULT '2000-01-01',
  quota_left     double precision,
  reserved_total bigint NOT NULL DEFAULT 0
);
INSERT INTO send_rate DEFAULT VALUES;

CREATE FUNCTION send_rate_pace(slowdown double precision, slowed_at timestamptz, at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE
RETURN least(1, slowdown + extract(epoch FROM at - slowed_at) / 60);

-- Reserves up to `wanted` slots at `max_rate` per second. Answers how many (0 when the schedule
-- is already full for longer than `horizon_ms`, or the daily quota is used up), when the first one
-- is (epoch milliseconds: workers compare it with their own clock, not with when the answer came)
-- or how long to wait before asking again, and the spacing of the others. `returned` slots of an
-- earlier reservation went unused (missed): they go back to the daily quota first.
CREATE FUNCTION reserve_send_slots(wanted integer, max_rate double precision, horizon_ms double precision, returned integer)
RETURNS TABLE (granted integer, first_at_ms double precision, wait_ms double precision, spacing_ms double precision,
               quota_reached boolean)
LANGUAGE plpgsql AS $$
DECLARE
  r send_rate;
  now_at timestamptz := clock_timestamp();
  rate double precision;
  start_at timestamptz;
  ahead_ms double precision;
  n integer := wanted;
BEGIN
  SELECT * INTO STRICT r FROM send_rate WHERE id FOR UPDATE;
  r.quota_left := r.quota_left + returned;
  r.reserved_total := r.reserved_total - returned;
  rate := max_rate * send_rate_pace(r.slowdown, r.slowed_at, now_at);
  start_at := greatest(r.next_slot_at, now_at);
  ahead_ms := extract(epoch FROM start_at - now_at)::double precision * 1000;
  IF ahead_ms > horizon_ms THEN
    n := 0;
    RETURN QUERY SELECT 0, 0::double precision, ahead_ms - horizon_ms, 0::double precision, false;
  ELSE
    IF r.quota_left IS NOT NULL THEN
      n := least(n, greatest(0, floor(r.quota_left))::integer);
    END IF;
    IF n <= 0 THEN
      n := 0;
      RETURN QUERY SELECT 0, 0::double precision, 0::double precision, 0::double precision, true;
    ELSE
      RETURN QUERY SELECT n, (extract(epoch FROM start_at) * 1000)::double precision, 0::double precision, 1000 / rate, false;
    END IF;
  END IF;
  IF n > 0 OR returned <> 0 THEN
    UPDATE send_rate
       SET next_slot_at = CASE WHEN n > 0 THEN start_at + make_interval(secs => n / rate) ELSE next_slot_at END,
           quota_left = r.quota_left - n,
           reserved_total = r.reserved_total + n
     WHERE id;
  END IF;
END $$;

-- SES refused for the rate: halve the pace (once a second, however many refusals arrive
-- together) and pause every worker for `pause_ms`.
CREATE FUNCTION send_rate_throttled(pause_ms double precision) RETURNS void LANGUAGE sql AS $$
  UPDATE send_rate
     SET slowdown = greatest(0.05, send_rate_pace(slowdown, slowed_at, clock_timestamp()) / 2),
         slowed_at = clock_timestamp(),
         next_slot_at = greatest(next_slot_at, clock_timestamp()) + make_interval(secs => pause_ms / 1000)
   WHERE id AND slowed_at < clock_timestamp() - interval '1 second';
$$;

-- When a sending campaign last moved (a batch recorded): the worker's sweep republishes the queued
-- jobs of a campaign idle for too long (their messages were lost). Not updated_at: that one is
-- "last edited" in the campaign list.
ALTER TABLE campaigns ADD COLUMN progress_at timestamptz;

-- Tracking (services/tracking): the API process buffers hits (opens and clicks) for a moment and
-- records each buffer with this one call, so a busy campaign costs a few statements a second, not a
-- few per hit. Hits are statistics: the commit does not wait for the disk (synchronous_commit off
-- for this transaction only); a crash can lose the last moment of hits, never a sent mail's record.
--
-- A hit is a job with a link (a click) or without (an open). Jobs that no longer exist (a deleted
-- campaign) and links of another campaign are skipped. The first open and the first click of a job
-- count in the campaign's unique figures, a job's first click on a link in the link's; a click is
-- an open too (images may be blocked). Rows are locked in one order (jobs, links, campaigns, each
-- by id) before they are read, so concurrent calls (several API processes) neither deadlock nor
-- count a first twice. Answers how many hits were recorded.
CREATE FUNCTION record_tracking_hits(hit_jobs bigint[], hit_links bigint[], hit_agents text[], hit_times timestamptz[])
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  recorded integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM 1 FROM campaign_jobs WHERE id = ANY (hit_jobs) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM campaign_links WHERE id = ANY (hit_links) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT campaign_id FROM campaign_jobs WHERE id = ANY (hit_jobs)) ORDER BY id FOR UPDATE;
  -- A new statement, so a new snapshot: it sees what the calls that held these locks before committed.
  WITH hit AS (
    SELECT h.job, h.link, h.agent, h.at, j.campaign_id, j.opened_at IS NULL AS unopened, j.clicked_at IS NULL AS unclicked
      FROM unnest(hit_jobs, hit_links, hit_agents, hit_times) AS h(job, link, agent, at)
      JOIN campaign_jobs j ON j.id = h.job
      LEFT JOIN campaign_links l ON l.id = h.link
     WHERE h.link IS NULL OR l.campaign_id = j.campaign_id),
  events AS (
    INSERT INTO tracking_events (campaign_id, job_id, kind, link_id, user_agent, created_at)
    SELECT campaign_id, job, CASE WHEN link IS NULL THEN 'OPEN' ELSE 'CLICK' END, link, left(agent, 500), at FROM hit
    RETURNING 1),
  per_job AS (
    SELECT job, campaign_id, min(at) AS first_at, min(at) FILTER (WHERE link IS NOT NULL) AS first_click_at,
           bool_or(unopened) AS new_open, bool_or(unclicked AND link IS NOT NULL) AS new_click
      FROM hit GROUP BY job, campaign_id),
  jobs AS (
    UPDATE campaign_jobs j SET opened_at = coalesce(j.opened_at, p.first_at), clicked_at = coalesce(j.clicked_at, p.first_click_at)
      FROM per_job p WHERE j.id = p.job AND (p.new_open OR p.new_click)
    RETURNING 1),
  pair AS (SELECT DISTINCT job, link FROM hit WHERE link IS NOT NULL),
  new_pair AS (
    SELECT link, count(*) AS n FROM pair
     WHERE NOT EXISTS (SELECT 1 FROM tracking_events e WHERE e.job_id = pair.job AND e.kind = 'CLICK' AND e.link_id = pair.link)
     GROUP BY link),
  link_clicks AS (SELECT link, count(*) AS n FROM hit WHERE link IS NOT NULL GROUP BY link),
  links AS (
    UPDATE campaign_links l SET clicks = l.clicks + c.n, unique_clicks = l.unique_clicks + coalesce(np.n, 0)
      FROM link_clicks c LEFT JOIN new_pair np ON np.link = c.link
     WHERE l.id = c.link
    RETURNING 1),
  per_campaign AS (
    SELECT campaign_id, count(*) FILTER (WHERE new_open) AS opens, count(*) FILTER (WHERE new_click) AS clicks
      FROM per_job GROUP BY campaign_id),
  counted AS (
    UPDATE campaigns c SET unique_opens = c.unique_opens + pc.opens, unique_clicks = c.unique_clicks + pc.clicks
      FROM per_campaign pc WHERE c.id = pc.campaign_id AND (pc.opens > 0 OR pc.clicks > 0)
    RETURNING 1)
  -- The other data-modifying parts run to completion whether read or not.
  SELECT count(*) INTO recorded FROM events;
  RETURN recorded;
END $$;
