-- A removed field's values, still to be cleared from its audience's contacts (an addition to the spec:
-- docs/decisions/audiences-and-imports.md, "Removing a field"). Removing a field takes its row out of
-- audience_fields and its key out of audiences.headers at once, and leaves one row here; the worker clears
-- contacts.data of that key in short batches (`after_id` is how far it got) and then deletes the row. While
-- the row is here the key cannot name a new field of the audience, so a field added again never shows the
-- old values.
CREATE TABLE audience_field_removals (
  audience_id bigint      NOT NULL REFERENCES audiences (id) ON DELETE CASCADE,
  key         text        NOT NULL,
  after_id    bigint      NOT NULL DEFAULT 0,
  removed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (audience_id, key)
);
CREATE UNIQUE INDEX audience_field_removals_folded_key ON audience_field_removals (audience_id, lower(key));
