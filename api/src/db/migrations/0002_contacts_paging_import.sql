-- Contacts at a million per audience: paging without row counts or OFFSET scans, substring search
-- on the address, and a bulk import that PostgreSQL can take at COPY speed
-- (services/contacts/*.ts say how each piece is used).

-- Dense numbers given by the import (contact-rows.ts): seq over all contacts of the audience in
-- file order, valid_seq over the valid ones, error_seq over the invalid ones. A page is a range of
-- one of them, read from these indexes: O(page size) whichever page, the last one included.
-- Contacts are written only by the import (never one by one), so the numbers stay dense.
ALTER TABLE contacts
  ADD COLUMN seq       integer,
  ADD COLUMN valid_seq integer,
  ADD COLUMN error_seq integer;
CREATE UNIQUE INDEX contacts_audience_seq ON contacts (audience_id, seq);
CREATE UNIQUE INDEX contacts_audience_valid_seq ON contacts (audience_id, valid_seq) WHERE valid_seq IS NOT NULL;
CREATE UNIQUE INDEX contacts_audience_error_seq ON contacts (audience_id, error_seq) WHERE error_seq IS NOT NULL;

-- Case-insensitive substring search on the address: trigrams of lower(email).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX contacts_email_trgm ON contacts USING gin (lower(email) gin_trgm_ops);

-- The foreign key contacts -> audiences is checked once per statement instead of once per row.
-- A row-level foreign key runs one lookup and one row lock on the audience for every contact: at
-- a million contacts that alone took longer than the rest of the COPY. The import inserts all of
-- an audience's contacts in one statement, so one set-based check per statement keeps the same
-- guarantee (no contact without its audience) at a fraction of the cost. What a row lock would add
-- against a concurrent delete is done by the application: the import and the purge of an
-- audience hold the same advisory lock (services/audiences/locks.ts), and an audience row is only
-- deleted once its contacts are gone (the trigger on audiences below).
ALTER TABLE contacts DROP CONSTRAINT contacts_audience_id_fkey;

CREATE FUNCTION contacts_check_audience() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM (SELECT DISTINCT audience_id FROM new_contacts) n
             WHERE NOT EXISTS (SELECT 1 FROM audiences a WHERE a.id = n.audience_id)) THEN
    RAISE EXCEPTION 'a contact must belong to an existing audience' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER contacts_insert_check_audience AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION contacts_check_audience();
CREATE TRIGGER contacts_update_check_audience AFTER UPDATE ON contacts
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION contacts_check_audience();

CREATE FUNCTION audiences_check_no_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM contacts WHERE audience_id = OLD.id) THEN
    RAISE EXCEPTION 'audience % still has contacts', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER audiences_delete_check_contacts BEFORE DELETE ON audiences
  FOR EACH ROW EXECUTE FUNCTION audiences_check_no_contacts();

-- When the running import was accepted: an import older than the stale timeout that no worker
-- holds is failed as interrupted (workers/audiences.ts).
ALTER TABLE audiences ADD COLUMN import_started_at timestamptz;

-- Export (services/contacts/export.ts): a cell a spreadsheet would read as a formula gets a leading
-- apostrophe (OWASP CSV injection). In SQL so that PostgreSQL's own CSV writer streams the file.
CREATE FUNCTION csv_inert(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN left(value, 1) IN ('=', '+', '-', '@', E'\t', E'\r') THEN '''' || value ELSE value END;
