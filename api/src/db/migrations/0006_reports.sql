-- Campaign reports at a million jobs (services/reports/repository.ts says how each piece is used):
-- no request counts rows, and the first and the last page of every filter cost a page's worth of
-- index entries.

-- The campaign's jobs counted by everything the report filters on except the address: one row per
-- (campaign, status, bounce type, opened, clicked), at most 72 per campaign. The total of any
-- combination of those filters is a sum over these rows. Kept by triggers on campaign_jobs, so every
-- statement that creates or moves jobs (send, claim, record, retry, sweep, SES events, tracking) keeps
-- them, in its own transaction: a snapshot sees counts that agree with its rows exactly.
CREATE TABLE campaign_job_counts (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  status      text NOT NULL,
  bounce_type text NOT NULL,                                           -- HARD, SOFT, or NONE
  opened      boolean NOT NULL,
  clicked     boolean NOT NULL,
  jobs        bigint NOT NULL,
  PRIMARY KEY (campaign_id, status, bounce_type, opened, clicked)
);

-- Adds `delta` (grouped by the key, in key order) to the counts. The campaign rows are locked first, in
-- id order: every writer of jobs then takes job rows, campaign row, count rows in that order (the
-- sending and tracking statements already update the campaign after its jobs), so no two statements
-- can wait on each other's count rows.
CREATE FUNCTION campaign_job_counts_add(delta campaign_job_counts[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_job_counts AS k (campaign_id, status, bounce_type, opened, clicked, jobs)
  SELECT d.campaign_id, d.status, d.bounce_type, d.opened, d.clicked, d.jobs FROM unnest(delta) d
   ORDER BY d.campaign_id, d.status, d.bounce_type, d.opened, d.clicked
  ON CONFLICT (campaign_id, status, bounce_type, opened, clicked) DO UPDATE SET jobs = k.jobs + excluded.jobs;
END $$;

-- Statement-level, over the transition tables: one pass whatever the number of rows (a million-job
-- send costs one aggregate, a claim of ten jobs a handful of rows).
CREATE FUNCTION campaign_jobs_counted_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta campaign_job_counts[];
BEGIN
  SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, jobs)::campaign_job_counts) INTO delta
    FROM (SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
                 clicked_at IS NOT NULL AS clicked, count(*) AS jobs
            FROM new_jobs GROUP BY 1, 2, 3, 4, 5) g;
  PERFORM campaign_job_counts_add(delta);
  RETURN NULL;
END $$;

CREATE FUNCTION campaign_jobs_counted_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta campaign_job_counts[];
BEGIN
  SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, jobs)::campaign_job_counts) INTO delta
    FROM (SELECT campaign_id, status, bounce_type, opened, clicked, sum(n) AS jobs
            FROM (SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
                         clicked_at IS NOT NULL AS clicked, 1 AS n FROM new_jobs
                  UNION ALL
                  SELECT campaign_id, status, coalesce(bounce_type, 'NONE'), opened_at IS NOT NULL, clicked_at IS NOT NULL, -1
                    FROM old_jobs) moves
           GROUP BY 1, 2, 3, 4, 5
          HAVING sum(n) <> 0) g;
  PERFORM campaign_job_counts_add(delta);
  RETURN NULL;
END $$;

-- Jobs are only deleted with their campaign (ON DELETE CASCADE), which takes its counts along.
CREATE TRIGGER campaign_jobs_count_insert AFTER INSERT ON campaign_jobs
  REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_counted_insert();
CREATE TRIGGER campaign_jobs_count_update AFTER UPDATE ON campaign_jobs
  REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_counted_update();

INSERT INTO campaign_job_counts (campaign_id, status, bounce_type, opened, clicked, jobs)
SELECT campaign_id, status, coalesce(bounce_type, 'NONE'), opened_at IS NOT NULL, clicked_at IS NOT NULL, count(*)
  FROM campaign_jobs GROUP BY 1, 2, 3, 4, 5;

-- Pages in job order, read from either end of these indexes: the whole campaign, and the rows a
-- rare filter keeps (bounces, opens, clicks; each status has campaign_jobs_campaign_status). Rows
-- not opened or not clicked, the common case, are read from the first one, skipping the others.
CREATE INDEX campaign_jobs_campaign ON campaign_jobs (campaign_id, id);
CREATE INDEX campaign_jobs_bounced ON campaign_jobs (campaign_id, bounce_type, id) WHERE bounce_type IS NOT NULL;
CREATE INDEX campaign_jobs_opened ON campaign_jobs (campaign_id, id) WHERE opened_at IS NOT NULL;
CREATE INDEX campaign_jobs_clicked ON campaign_jobs (campaign_id, id) WHERE clicked_at IS NOT NULL;
