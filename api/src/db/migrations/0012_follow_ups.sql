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
-- preview's pages are ranges of the primary key at any size. No foreign key to contacts: an
-- audience's contacts are purged in batches after it is deleted, and a key would cost each of those
-- deletes a probe here; the send joins contacts, so a purged contact is simply not sent to.
CREATE TABLE follow_up_recipients (
  campaign_id bigint  NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  seq         integer NOT NULL,
  contact_id  bigint  NOT NULL,
  PRIMARY KEY (campaign_id, seq)
);
