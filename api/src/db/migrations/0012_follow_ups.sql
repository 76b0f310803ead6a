-- Follow-ups (an addition to the spec): a DRAFT copy of a SENT campaign that goes only to the
-- original's contacts who did not open it, or did not click, as people (human_opened_at and
-- human_clicked_at of migration 0010), suppressed addresses left out.
--
-- The recipients are frozen when the follow-up is created, in one INSERT ... SELECT over the
-- original's jobs: the editor's count, its preview and validation, the send confirmation and the
-- send itself all read this one set, whatever opens arrive later. A follow-up remembers what it
-- follows by name as well as by id, so its To line still reads right once the original is deleted.
ALTER TABLE campaigns
  ADD COLUMN follow_up_of         bigint REFERENCES campaigns (id) ON DELETE SET NULL,
  ADD COLUMN follow_up_name       text,
  ADD COLUMN follow_up_recipients text CHECK (follow_up_recipients IN ('NOT_OPENED', 'NOT_CLICKED')),
  ADD COLUMN follow_up_count      integer;

-- seq numbers a follow-up's recipients densely from 1 in the original's job order, so the
-- preview's pages are ranges of the primary key at any size. No foreign keys: a key is checked row
-- by row (EXPLAIN ANALYZE at 735,000 recipients: 4.4 s in the key's trigger, on a loaded machine).
-- The rows go with their campaign through the trigger below instead (the one insert names a campaign
-- it has just created in the same transaction). Nor to contacts: an audience's contacts are purged
-- in batches after it is deleted; the send joins contacts, so a purged contact is not sent to.
CREATE TABLE follow_up_recipients (
  campaign_id bigint  NOT NULL,
  seq         integer NOT NULL,
  contact_id  bigint  NOT NULL,
  PRIMARY KEY (campaign_id, seq)
);

CREATE FUNCTION follow_up_recipients_of_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM follow_up_recipients WHERE campaign_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER campaigns_follow_up_recipients_delete AFTER DELETE ON campaigns
  FOR EACH ROW WHEN (OLD.follow_up_recipients IS NOT NULL) EXECUTE FUNCTION follow_up_recipients_of_deleted();
