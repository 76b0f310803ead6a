-- An audience's typed fields (an addition to the spec; the rules are packages/api-client/src/fields.ts).
-- A field's key is the merge tag's name and the key of its value in contacts.data; the label is what screens
-- show, and may change while the key stays. audiences.headers, which the spec names "the list of contact field
-- names", stays the fields' keys in position order: whoever changes the fields rewrites it in the same
-- transaction.
CREATE TABLE audience_fields (
  audience_id        bigint  NOT NULL REFERENCES audiences (id) ON DELETE CASCADE,
  key                text    NOT NULL,
  label              text    NOT NULL,
  type               text    NOT NULL CHECK (type IN ('TEXT', 'NUMBER', 'DATE', 'YES_NO', 'CHOICE')),
  -- CHOICE: the allowed values, in the order offered; null for every other type.
  options            jsonb   CHECK ((type = 'CHOICE') = (options IS NOT NULL)),
  required           boolean NOT NULL DEFAULT false,
  -- Whether the person may change it in the preference centre.
  editable_by_person boolean NOT NULL DEFAULT false,
  position           integer NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (audience_id, key)
);
-- Merge tags resolve a key without regard to case ({{fullname}} finds fullName), so two keys may not differ
-- only in case.
CREATE UNIQUE INDEX audience_fields_folded_key ON audience_fields (audience_id, lower(key));

-- Every column an audience already has becomes a TEXT field under its own name, so every merge tag in use
-- goes on resolving as it did.
INSERT INTO audience_fields (audience_id, key, label, type, position)
SELECT a.id, h.key, h.key, 'TEXT', h.n
  FROM audiences a, jsonb_array_elements_text(a.headers) WITH ORDINALITY AS h (key, n)
ON CONFLICT DO NOTHING;
