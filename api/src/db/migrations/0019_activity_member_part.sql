-- The activity log's member filter takes a part of an address ("mia"), case-insensitively (addresses
-- are stored lower-cased). A pattern on the log itself could not use activity_by_member's order: a
-- page would walk the newest entries and filter them, all of the log for a part that matches little.
-- So the filter first finds the addresses that have the part in activity_members (every address that
-- has acted, a few hundred rows, with a trigram index), then reads the log by those addresses: one
-- address is one range of activity_by_member, as an exact address was before.
--
-- The list is kept by a statement trigger on the log (one insert per statement, whatever its rows);
-- an address stays listed after the retention sweep removes its entries (it then matches no entry).
CREATE TABLE activity_members (email text PRIMARY KEY);
INSERT INTO activity_members (email) SELECT DISTINCT member_email FROM activity;
CREATE INDEX activity_members_part ON activity_members USING gin (email gin_trgm_ops);

CREATE FUNCTION activity_list_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_members (email) SELECT DISTINCT member_email FROM added ORDER BY 1 ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER activity_members_listed AFTER INSERT ON activity REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION activity_list_members();
