-- A send's freeze pays per statement what it paid per job (issue 26; docs/decisions/segments.md, "The freeze").
--
-- The first send of a campaign to a million contacts creates a million jobs in one INSERT ... SELECT. Measured
-- there (EXPLAIN ANALYZE at a million recipients), the foreign key to the campaign took a third of the statement:
-- PostgreSQL checks a foreign key once per inserted row, each check a query of its own, although every job of a
-- send names the one campaign the send holds locked. And the unique index on SES's message id took an entry per
-- job, all of them null until SES answers.

-- The campaign a job names is checked once per statement, for the distinct campaigns the statement inserted, with
-- the lock the foreign key took (KEY SHARE: the campaign cannot be deleted meanwhile, as before). A campaign's
-- delete still deletes its jobs (and, through their own foreign keys, what hangs on them), as ON DELETE CASCADE did.
ALTER TABLE campaign_jobs DROP CONSTRAINT campaign_jobs_campaign_id_fkey;

CREATE FUNCTION campaign_jobs_check_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing bigint;
BEGIN
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT campaign_id FROM new_jobs) FOR KEY SHARE;
  SELECT n.campaign_id INTO missing
    FROM (SELECT DISTINCT campaign_id FROM new_jobs) n
   WHERE NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = n.campaign_id)
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'insert or update on table "campaign_jobs" violates its reference to campaigns'
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (campaign_id)=(%s) is not present in table "campaigns".', missing);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER campaign_jobs_campaign_insert AFTER INSERT ON campaign_jobs
  REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION campaign_jobs_check_campaigns();
-- No statement moves a job to another campaign; should one, that job is checked as the foreign key checked it
-- (only when the campaign changes: the workers' updates of their jobs pay nothing).
CREATE FUNCTION campaign_jobs_check_moved_campaign() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM campaigns WHERE id = NEW.campaign_id FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "campaign_jobs" violates its reference to campaigns'
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (campaign_id)=(%s) is not present in table "campaigns".', NEW.campaign_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER campaign_jobs_campaign_update AFTER UPDATE OF campaign_id ON campaign_jobs
  FOR EACH ROW WHEN (NEW.campaign_id IS DISTINCT FROM OLD.campaign_id) EXECUTE FUNCTION campaign_jobs_check_moved_campaign();

CREATE FUNCTION campaigns_delete_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_jobs WHERE campaign_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER campaigns_delete_jobs AFTER DELETE ON campaigns FOR EACH ROW EXECUTE FUNCTION campaigns_delete_jobs();

-- SES's message id stays unique; the jobs without one yet (every job of a send being frozen) are not in the index.
ALTER TABLE campaign_jobs DROP CONSTRAINT campaign_jobs_ses_message_id_key;
CREATE UNIQUE INDEX campaign_jobs_ses_message_id_key ON campaign_jobs (ses_message_id) WHERE ses_message_id IS NOT NULL;
