-- The import wizard's mapping, remembered per audience (issue 24; docs/decisions/audiences-and-imports.md, "The
-- mapping, remembered"): what the last accepted import did with each column of its file, by column name, so that
-- the wizard offers the same choices the next time (an import that failed, another file of the same shape).
-- {"emailColumn": "...", "columns": [{"column": "...", "key": "fieldKey" | null}]}; null before any import.
ALTER TABLE audiences ADD COLUMN import_mapping jsonb;
