-- Opens and clicks that a person made, apart from those of machines (privacy proxies, link scanners,
-- bots). The spec's figures stay as they are: opened_at and clicked_at are a job's first open and
-- click by anyone, and uniqueOpens / uniqueClicks count them. Beside them:
--  - a job's first open and click that the tracking classification judged human. A later human hit
--    of a job first opened by a machine sets them; a hit later found to be a machine's (a scanner's
--    burst, the hidden link) can clear them again;
--  - every hit keeps what it was judged on (client address, user agent, time since the mail was
--    sent) and the verdict with its reason, so a verdict can be explained and revised.
ALTER TABLE campaign_jobs
  ADD COLUMN human_opened_at  timestamptz,
  ADD COLUMN human_clicked_at timestamptz;

ALTER TABLE tracking_events
  ADD COLUMN client_ip        inet,
  ADD COLUMN since_sent_ms    bigint,
  ADD COLUMN machine          boolean NOT NULL DEFAULT false,
  ADD COLUMN machine_reason   text;

-- The counts of migration 0006 also tell human opens and clicks apart, so every filter that can ask
-- for people only is still a sum over at most a few hundred rows per campaign.
DROP TRIGGER campaign_jobs_count_insert ON campaign_jobs;
DROP TRIGGER campaign_jobs_count_update ON campaign_jobs;
DROP FUNCTION campaign_jobs_counted_insert();
DROP FUNCTION campaign_jobs_counted_update();
DROP FUNCTION campaign_job_counts_add(campaign_job_counts[]);

-- Hits recorded before this migration kept no evidence to judge: each was counted a reader then, and
-- stays one (a report sent before does not turn into 0 % by people). Done while the count triggers
-- are off; the counts are rebuilt from the jobs below.
UPDATE campaign_jobs SET human_opened_at = opened_at, human_clicked_at = clicked_at
 WHERE opened_at IS NOT NULL OR clicked_at IS NOT NULL;

ALTER TABLE campaign_job_counts
  ADD COLUMN human_opened  boolean NOT NULL DEFAULT false,
  ADD COLUMN human_clicked boolean NOT NULL DEFAULT false;
-- The composite type's field order follows the table's columns: jobs stays last, as the functions read it.
ALTER TABLE campaign_job_counts DROP CONSTRAINT campaign_job_counts_pkey;
ALTER TABLE campaign_job_counts RENAME COLUMN jobs TO jobs_before;
ALTER TABLE campaign_job_counts ADD COLUMN jobs bigint NOT NULL DEFAULT 0;
UPDATE campaign_job_counts SET jobs = jobs_before;
ALTER TABLE campaign_job_counts DROP COLUMN jobs_before;
ALTER TABLE campaign_job_counts ALTER COLUMN jobs DROP DEFAULT;
ALTER TABLE campaign_job_counts ALTER COLUMN human_opened DROP DEFAULT;
ALTER TABLE campaign_job_counts ALTER COLUMN human_clicked DROP DEFAULT;
ALTER TABLE campaign_job_counts
  ADD PRIMARY KEY (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked);
DELETE FROM campaign_job_counts;
INSERT INTO campaign_job_counts (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)
SELECT campaign_id, status, coalesce(bounce_type, 'NONE'), opened_at IS NOT NULL, clicked_at IS NOT NULL,
       human_opened_at IS NOT NULL, human_clicked_at IS NOT NULL, count(*)
  FROM campaign_jobs GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- As in 0006: campaign rows locked first, in id order, then the count rows in key order.
CREATE FUNCTION campaign_job_counts_add(delta campaign_job_counts[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_job_counts AS k (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)
  SELECT d.campaign_id, d.status, d.bounce_type, d.opened, d.clicked, d.human_opened, d.human_clicked, d.jobs FROM unnest(delta) d
   ORDER BY d.campaign_id, d.status, d.bounce_type, d.opened, d.clicked, d.human_opened, d.human_clicked
  ON CONFLICT (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked)
  DO UPDATE SET jobs = k.jobs + excluded.jobs;
END $$;

CREATE FUNCTION campaign_jobs_counted_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta campaign_job_counts[];
BEGIN
  SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)::campaign_job_counts) INTO delta
    FROM (SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
                 clicked_at IS NOT NULL AS clicked, human_opened_at IS NOT NULL AS human_opened,
                 human_clicked_at IS NOT NULL AS human_clicked, count(*) AS jobs
            FROM new_jobs GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
  PERFORM campaign_job_counts_add(delta);
  RETURN NULL;
END $$;

CREATE FUNCTION campaign_jobs_counted_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta campaign_job_counts[];
BEGIN
  SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)::campaign_job_counts) INTO delta
    FROM (SELECT campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, sum(n) AS jobs
            FROM (SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
                         clicked_at IS NOT NULL AS clicked, human_opened_at IS NOT NULL AS human_opened,
                         human_clicked_at IS NOT NULL AS human_clicked, 1 AS n FROM new_jobs
                  UNION ALL
                  SELECT campaign_id, status, coalesce(bounce_type, 'NONE'), opened_at IS NOT NULL, clicked_at IS NOT NULL,
                         human_opened_at IS NOT NULL, human_clicked_at IS NOT NULL, -1
                    FROM old_jobs) moves
           GROUP BY 1, 2, 3, 4, 5, 6, 7
          HAVING sum(n) <> 0) g;
  PERFORM campaign_job_counts_add(delta);
  RETURN NULL;
END $$;

CREATE TRIGGER campaign_jobs_count_insert AFTER INSERT ON campaign_jobs
  REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_counted_insert();
CREATE TRIGGER campaign_jobs_count_update AFTER UPDATE ON campaign_jobs
  REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_counted_update();
