-- The activity log (services/activity): who did what, written in the same transaction as the change
-- it records, so a change that rolls back leaves no row and a row always names a change that was made.
-- Append-only for the product: no call updates or deletes a row; the worker's retention sweep removes
-- rows older than ACTIVITY_RETENTION_DAYS, oldest first, in batches.
--
-- Pages are keyset ranges on (created_at DESC, id DESC): the newest, a middle and the oldest page each
-- read one index range of `limit` rows, at a million rows as at ten. Each filter (member, kind, object)
-- has an index with the same order behind its equality columns, so a filtered page is one range too.
CREATE TABLE activity (
  id           bigserial PRIMARY KEY,
  created_at   timestamptz NOT NULL DEFAULT now(),
  member_email text NOT NULL,
  kind         text NOT NULL,
  object_type  text NOT NULL,
  object_id    bigint,
  object_name  text,
  -- A few facts of the action (a rename's old name, how many were queued, an export's filters), never data.
  details      jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (octet_length(details::text) <= 2000)
);

CREATE INDEX activity_newest ON activity (created_at DESC, id DESC);
CREATE INDEX activity_by_member ON activity (member_email, created_at DESC, id DESC);
CREATE INDEX activity_by_kind ON activity (kind, created_at DESC, id DESC);
CREATE INDEX activity_by_object ON activity (object_type, object_id, created_at DESC, id DESC);

-- Rows are never edited: an UPDATE is refused whoever sends it.
CREATE FUNCTION activity_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the activity log is append-only';
END $$;
CREATE TRIGGER activity_append_only BEFORE UPDATE ON activity FOR EACH ROW EXECUTE FUNCTION activity_refuse_update();
