-- People's clicks per link (an addition to the spec): Click Performance shows, beside each link's
-- total and unique clicks (people's and machines' alike, as the spec counts them), the clicks people
-- made and the people who clicked, kept here as hits arrive and are re-marked, never counted from the
-- hits when the page asks (a count over 500,000 hits of one campaign took 0.6 to 1.4 s).
--  - human_clicks: the link's CLICK hits not judged a machine's (tracking_events.machine);
--  - human_unique_clicks: the jobs with at least one such hit on the link.
-- A hit re-marked as a machine's later (a scanner's burst found after the fact) leaves both, and its
-- job leaves the unique count once it has no people's hit on the link left. Lock order as in 0016:
-- the campaign rows first, then these rows, so every writer of a campaign's counts takes turns on its
-- campaign row (record_tracking_hits holds it already) and no two wait on each other's links.
CREATE TABLE campaign_link_counts (
  link_id             bigint PRIMARY KEY REFERENCES campaign_links (id) ON DELETE CASCADE,
  campaign_id         bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  human_clicks        integer NOT NULL,                              -- integers, as campaign_links.clicks
  human_unique_clicks integer NOT NULL
);

-- A statement's people's clicks per (job, link), over its transition tables (transition_moves of 0016):
-- the clicks move by the net count, and the job joins or leaves the link's people when its count of
-- people's hits there, read after the statement, crosses zero.
CREATE FUNCTION tracking_events_link_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  campaign_ids bigint[];
  job_ids bigint[];
  link_ids bigint[];
  moves bigint[];
BEGIN
  EXECUTE format($q$
    SELECT array_agg(campaign_id), array_agg(job_id), array_agg(link_id), array_agg(n)
      FROM (SELECT campaign_id, job_id, link_id, sum(n) AS n FROM (%s) m
             WHERE kind = 'CLICK' AND link_id IS NOT NULL AND NOT machine
             GROUP BY 1, 2, 3 HAVING sum(n) <> 0) p
    $q$, transition_moves('campaign_id, job_id, link_id, kind, machine', TG_OP, 'new_events', 'old_events'))
    INTO campaign_ids, job_ids, link_ids, moves;
  IF campaign_ids IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM campaigns WHERE id = ANY (campaign_ids) ORDER BY id FOR NO KEY UPDATE;
  -- A new statement, so a new snapshot: it sees the hits of whoever held the campaign rows before.
  INSERT INTO campaign_link_counts AS k (link_id, campaign_id, human_clicks, human_unique_clicks)
  SELECT link_id, campaign_id, sum(n), sum((after > 0)::int - (after - n > 0)::int)
    FROM (SELECT m.campaign_id, m.link_id, m.n,
                 (SELECT count(*) FROM tracking_events e
                   WHERE e.job_id = m.job_id AND e.kind = 'CLICK' AND e.link_id = m.link_id AND NOT e.machine) AS after
            FROM unnest(campaign_ids, job_ids, link_ids, moves) AS m(campaign_id, job_id, link_id, n)) p
   GROUP BY link_id, campaign_id
   ORDER BY link_id
  ON CONFLICT (link_id) DO UPDATE
     SET human_clicks = k.human_clicks + excluded.human_clicks,
         human_unique_clicks = k.human_unique_clicks + excluded.human_unique_clicks;
  RETURN NULL;
END $$;

CREATE TRIGGER tracking_events_link_count_insert AFTER INSERT ON tracking_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION tracking_events_link_counted();
CREATE TRIGGER tracking_events_link_count_update AFTER UPDATE ON tracking_events
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION tracking_events_link_counted();

-- The hits recorded before this migration (the triggers above hold the table against new ones).
INSERT INTO campaign_link_counts (link_id, campaign_id, human_clicks, human_unique_clicks)
SELECT e.link_id, l.campaign_id, count(*), count(DISTINCT e.job_id)
  FROM tracking_events e JOIN campaign_links l ON l.id = e.link_id
 WHERE e.kind = 'CLICK' AND NOT e.machine
 GROUP BY e.link_id, l.campaign_id;
