-- The activity log's member filter takes a part of an address ("mia"), case-insensitively: the
-- addresses are stored lower-cased, and the filter is `member_email LIKE '%part%'` on the lowered part.
-- A trigram index answers such a pattern without reading the table: a part few entries have is found
-- through it (then only its entries are sorted), a part most entries have is met walking the newest
-- entries (activity_newest), and the planner chooses by the index's estimate. pg_trgm is installed by
-- migration 0002.
CREATE INDEX activity_member_part ON activity USING gin (member_email gin_trgm_ops);
