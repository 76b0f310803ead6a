-- The hidden link is evidence, never a click (README, "Architecture", People and machines).
--
-- 1. The report's timeline (campaign_hourly_counts, migration 0016) counted a hit on the hidden link
--    as a machine's click, while Click Performance, the overview and every other figure leave it out,
--    so the two disagreed by the scanners' hits. The hits trigger now leaves it out too, and the
--    hourly counts of the campaigns recorded so far lose the hidden link's hits.
-- 2. "Every link followed within seconds" (scanner-burst) took two quick clicks of a person on a
--    two-link mail for a scanner's. It now needs scanner_burst_links visible links or more (classify.ts
--    passes SCANNER_BURST_LINKS); the hidden link still gives away a scanner of a smaller mail.
--    Verdicts already stored stay as they were: what a hit's burst was is not kept, only its verdict.

-- Until this commits, no hit is recorded or re-marked (SHARE stops writes, not reads): the hourly
-- counts corrected below are those of every hit committed before, and every later hit goes through
-- the new trigger. Taken first, and no campaign row is locked below: a recording waiting here holds
-- its campaign and job rows but no aggregate row (it takes those after its insert), so it closes no
-- cycle with this transaction.
LOCK TABLE tracking_events IN SHARE MODE;

-- Hits: opens and clicks per hour, people and machines apart (an UPDATE re-marks them); a hit on the
-- hidden link is none of them.
CREATE OR REPLACE FUNCTION tracking_events_counted() RETURNS trigger LANGUAGE plpgsql AS $$
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
              FROM moves m
             WHERE m.link_id IS NULL OR NOT EXISTS (SELECT 1 FROM campaign_links l WHERE l.id = m.link_id AND l.hidden)
             GROUP BY 1, 2) h
     WHERE (opens_human, opens_machine, clicks_human, clicks_machine) <> (0, 0, 0, 0)
    $q$, transition_moves('campaign_id, created_at, kind, machine, link_id', TG_OP, 'new_events', 'old_events'))
    INTO hourly;
  PERFORM campaign_hourly_counts_add(hourly);
  RETURN NULL;
END $$;

-- The hidden link's hits counted so far (read through the links' index), taken out of their hours.
CREATE TEMPORARY TABLE hidden_link_hits ON COMMIT DROP AS
SELECT e.campaign_id, date_trunc('hour', e.created_at, 'UTC') AS hour,
       count(*) FILTER (WHERE e.kind = 'OPEN' AND NOT e.machine) AS opens_human,
       count(*) FILTER (WHERE e.kind = 'OPEN' AND e.machine) AS opens_machine,
       count(*) FILTER (WHERE e.kind = 'CLICK' AND NOT e.machine) AS clicks_human,
       count(*) FILTER (WHERE e.kind = 'CLICK' AND e.machine) AS clicks_machine
  FROM campaign_links l JOIN tracking_events e ON e.link_id = l.id
 WHERE l.hidden
 GROUP BY 1, 2;

-- The aggregate rows in key order, as campaign_hourly_counts_add takes them (a sender moving jobs holds some).
SELECT 1 FROM campaign_hourly_counts k JOIN hidden_link_hits h USING (campaign_id, hour)
 ORDER BY k.campaign_id, k.hour FOR UPDATE OF k;

UPDATE campaign_hourly_counts k
   SET opens_human = k.opens_human - h.opens_human, opens_machine = k.opens_machine - h.opens_machine,
       clicks_human = k.clicks_human - h.clicks_human, clicks_machine = k.clicks_machine - h.clicks_machine
  FROM hidden_link_hits h
 WHERE k.campaign_id = h.campaign_id AND k.hour = h.hour;

-- record_tracking_hits (migration 0015) with the fewest links of a scanner's burst as an argument. The
-- old signature stays, as a call of the new one with three links (below): API processes of the code
-- before this migration keep recording hits until they are replaced, as in a rolling deployment.
DROP FUNCTION record_tracking_hits(bigint[], bigint[], text[], timestamptz[], inet[], text[], integer, integer);

CREATE FUNCTION record_tracking_hits(hit_jobs bigint[], hit_links bigint[], hit_agents text[], hit_times timestamptz[],
                                     hit_ips inet[], hit_reasons text[], too_soon_ms integer, burst_ms integer,
                                     scanner_burst_links integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  recorded integer;
  burst interval := make_interval(secs => burst_ms / 1000.0);
  marked bigint[];
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM 1 FROM campaign_jobs WHERE id = ANY (hit_jobs) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM campaign_links WHERE id = ANY (hit_links) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT campaign_id FROM campaign_jobs WHERE id = ANY (hit_jobs)) ORDER BY id FOR UPDATE;
  -- A new statement, so a new snapshot: it sees what the calls that held these locks before committed.
  WITH hit AS (
    SELECT h.job, h.link, h.agent, h.at, h.ip, j.campaign_id, j.opened_at IS NULL AS unopened, j.clicked_at IS NULL AS unclicked,
           coalesce(l.hidden, false) AS hidden, (extract(epoch FROM h.at - j.sent_at) * 1000)::bigint AS since_sent_ms,
           CASE WHEN l.hidden THEN 'hidden-link'
                ELSE coalesce(h.reason, CASE WHEN h.link IS NOT NULL AND h.at - j.sent_at < make_interval(secs => too_soon_ms / 1000.0)
                                             THEN 'too-soon' END) END AS reason
      FROM unnest(hit_jobs, hit_links, hit_agents, hit_times, hit_ips, hit_reasons) AS h(job, link, agent, at, ip, reason)
      JOIN campaign_jobs j ON j.id = h.job
      LEFT JOIN campaign_links l ON l.id = h.link
     WHERE h.link IS NULL OR l.campaign_id = j.campaign_id),
  events AS (
    INSERT INTO tracking_events (campaign_id, job_id, kind, link_id, user_agent, created_at, client_ip, since_sent_ms, machine, machine_reason)
    SELECT campaign_id, job, CASE WHEN link IS NULL THEN 'OPEN' ELSE 'CLICK' END, link, left(agent, 500), at, ip, since_sent_ms,
           reason IS NOT NULL, reason
      FROM hit
    RETURNING 1),
  -- The spec's figures as before, without the hidden link.
  counted AS (SELECT * FROM hit WHERE NOT hidden),
  per_job AS (
    SELECT job, campaign_id, min(at) AS first_at, min(at) FILTER (WHERE link IS NOT NULL) AS first_click_at,
           min(at) FILTER (WHERE reason IS NULL) AS human_at, min(at) FILTER (WHERE link IS NOT NULL AND reason IS NULL) AS human_click_at,
           bool_or(unopened) AS new_open, bool_or(unclicked AND link IS NOT NULL) AS new_click
      FROM counted GROUP BY job, campaign_id),
  jobs AS (
    -- least() passes over NULLs: a person's first hit stays the first.
    UPDATE campaign_jobs j SET opened_at = coalesce(j.opened_at, p.first_at), clicked_at = coalesce(j.clicked_at, p.first_click_at),
                               human_opened_at = least(j.human_opened_at, p.human_at),
                               human_clicked_at = least(j.human_clicked_at, p.human_click_at)
      FROM per_job p
     WHERE j.id = p.job
       AND (p.new_open OR p.new_click OR p.human_at < coalesce(j.human_opened_at, 'infinity')
            OR p.human_click_at < coalesce(j.human_clicked_at, 'infinity'))
    RETURNING 1),
  pair AS (SELECT DISTINCT job, link FROM counted WHERE link IS NOT NULL),
  new_pair AS (
    SELECT link, count(*) AS n FROM pair
     WHERE NOT EXISTS (SELECT 1 FROM tracking_events e WHERE e.job_id = pair.job AND e.kind = 'CLICK' AND e.link_id = pair.link)
     GROUP BY link),
  link_clicks AS (SELECT link, count(*) AS n FROM counted WHERE link IS NOT NULL GROUP BY link),
  links AS (
    UPDATE campaign_links l SET clicks = l.clicks + c.n, unique_clicks = l.unique_clicks + coalesce(np.n, 0)
      FROM link_clicks c LEFT JOIN new_pair np ON np.link = c.link
     WHERE l.id = c.link
    RETURNING 1),
  per_campaign AS (
    SELECT campaign_id, count(*) FILTER (WHERE new_open) AS opens, count(*) FILTER (WHERE new_click) AS clicks
      FROM per_job GROUP BY campaign_id),
  campaign_counts AS (
    UPDATE campaigns c SET unique_opens = c.unique_opens + pc.opens, unique_clicks = c.unique_clicks + pc.clicks
      FROM per_campaign pc WHERE c.id = pc.campaign_id AND (pc.opens > 0 OR pc.clicks > 0)
    RETURNING 1)
  -- The other data-modifying parts run to completion whether read or not.
  SELECT count(*) INTO recorded FROM events;

  -- Bursts, in the hits of this call's jobs around this call's hits (the job and time index).
  WITH batch AS (
    SELECT h.job, min(h.at) AS first_at, max(h.at) AS last_at FROM unnest(hit_jobs, hit_times) AS h(job, at) GROUP BY h.job),
  recent AS (
    SELECT e.id, e.job_id, e.campaign_id, e.link_id, e.created_at, e.machine, coalesce(l.hidden, false) AS hidden,
           e.created_at BETWEEN b.first_at AND b.last_at AS in_call
      FROM batch b
      JOIN tracking_events e ON e.job_id = b.job AND e.created_at BETWEEN b.first_at - 2 * burst AND b.last_at + 2 * burst
      LEFT JOIN campaign_links l ON l.id = e.link_id),
  link_count AS (
    SELECT l.campaign_id, count(*) AS n FROM campaign_links l
     WHERE l.campaign_id IN (SELECT campaign_id FROM recent WHERE in_call AND link_id IS NOT NULL AND NOT hidden) AND NOT l.hidden
     GROUP BY l.campaign_id),
  found AS (
    SELECT r.job_id, r.created_at - burst AS from_at, r.created_at + burst AS to_at, 'hidden-link' AS reason
      FROM recent r WHERE r.hidden
    UNION ALL
    -- Every link of the mail (scanner_burst_links or more) followed within burst_ms of one of this call's clicks.
    SELECT c.job_id, c.created_at - 2 * burst, c.created_at + 2 * burst, 'scanner-burst'
      FROM recent c JOIN link_count n ON n.campaign_id = c.campaign_id AND n.n >= scanner_burst_links
     WHERE c.in_call AND c.link_id IS NOT NULL AND NOT c.hidden
       AND (SELECT count(DISTINCT o.link_id) FROM tracking_events o JOIN campaign_links ol ON ol.id = o.link_id AND NOT ol.hidden
             WHERE o.job_id = c.job_id AND o.created_at BETWEEN c.created_at - burst AND c.created_at + burst) = n.n),
  turned AS (
    SELECT DISTINCT ON (r.id) r.id, f.reason
      FROM recent r JOIN found f ON f.job_id = r.job_id AND r.created_at BETWEEN f.from_at AND f.to_at
     WHERE NOT r.machine
     ORDER BY r.id, f.reason),
  marked_events AS (
    UPDATE tracking_events e SET machine = true, machine_reason = t.reason FROM turned t WHERE e.id = t.id
    RETURNING e.job_id)
  SELECT array_agg(DISTINCT job_id) INTO marked FROM marked_events;

  IF marked IS NOT NULL THEN
    -- A hidden-link hit is always a machine's: the hits left to people are the spec's opens and clicks.
    UPDATE campaign_jobs j SET human_opened_at = p.opened_at, human_clicked_at = p.clicked_at
      FROM (SELECT m.job,
                   (SELECT min(e.created_at) FROM tracking_events e WHERE e.job_id = m.job AND NOT e.machine) AS opened_at,
                   (SELECT min(e.created_at) FROM tracking_events e WHERE e.job_id = m.job AND e.kind = 'CLICK' AND NOT e.machine) AS clicked_at
              FROM unnest(marked) AS m(job)) p
     WHERE j.id = p.job
       AND (j.human_opened_at IS DISTINCT FROM p.opened_at OR j.human_clicked_at IS DISTINCT FROM p.clicked_at);
  END IF;
  RETURN recorded;
END $$;

CREATE FUNCTION record_tracking_hits(hit_jobs bigint[], hit_links bigint[], hit_agents text[], hit_times timestamptz[],
                                     hit_ips inet[], hit_reasons text[], too_soon_ms integer, burst_ms integer)
RETURNS integer LANGUAGE sql AS $$
  SELECT record_tracking_hits(hit_jobs, hit_links, hit_agents, hit_times, hit_ips, hit_reasons, too_soon_ms, burst_ms, 3);
$$;
