-- People and machines (services/tracking/classify.ts has the rules; README, "Architecture").
--
-- Each sent mail carries one link that no person sees (no text, no size): a hit on it is a scanner's.
-- It is a campaign_links row of its own so its click URL is signed like the others, but it is never
-- one of the spec's links: not in the links table or the click map, never a click or an open.
ALTER TABLE campaign_links ADD COLUMN hidden boolean NOT NULL DEFAULT false;

-- A job's hits around a moment (the bursts below): a range of this index, however many hits the job has.
CREATE INDEX tracking_events_job_time ON tracking_events (job_id, created_at);

-- record_tracking_hits (migration 0005) also keeps each hit's evidence and verdict and the jobs'
-- first human open and click (migration 0010). The API process judges each hit by what it says
-- (hit_reasons: a machine's reason, or NULL for a person's, classifyHit); this function adds what
-- needs the job: the time since it was sent (a click sooner than too_soon_ms is a scanner's), the
-- hidden link, and a scanner's burst (every link of the mail followed within burst_ms). A burst may
-- reach the API over several flushes and processes, so it is found in the job's recorded hits
-- around this call's, not in the call alone; the job rows are locked first, so two calls for one
-- job take turns and the second sees the first's hits. Hits found in a burst turn to machines' and
-- their jobs' human open and click are read again from the hits left to people.
DROP FUNCTION record_tracking_hits(bigint[], bigint[], text[], timestamptz[]);

CREATE FUNCTION record_tracking_hits(hit_jobs bigint[], hit_links bigint[], hit_agents text[], hit_times timestamptz[],
                                     hit_ips inet[], hit_reasons text[], too_soon_ms integer, burst_ms integer)
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
    -- Every link of the mail (two or more) followed within burst_ms of one of this call's clicks.
    SELECT c.job_id, c.created_at - 2 * burst, c.created_at + 2 * burst, 'scanner-burst'
      FROM recent c JOIN link_count n ON n.campaign_id = c.campaign_id AND n.n >= 2
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
