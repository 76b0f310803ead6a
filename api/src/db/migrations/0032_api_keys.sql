-- API keys (issue 27; docs/decisions/access.md, "API keys"). An admin creates a key with a name, scopes and an
-- expiry; the key itself (`mr_` and 32 random bytes) is shown once and only its SHA-256 is kept: a key of 256
-- random bits needs no slow hash, and a lookup by hash is one index probe per call.
-- Scopes are role names and operationIds of openapi.yaml; a call is allowed when one scope allows it.
-- A key is never deleted: revoked_at refuses it, and its row names what the activity log recorded under it.
CREATE TABLE api_keys (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  key_hash    bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  -- The key's first characters, so that a member can tell keys apart in the list.
  key_prefix  text NOT NULL,
  scopes      text[] NOT NULL CHECK (cardinality(scopes) > 0),
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  last_used_at timestamptz
);
-- One live key of a name at a time, so the activity log's name points at one key.
CREATE UNIQUE INDEX api_keys_live_name ON api_keys (lower(name)) WHERE revoked_at IS NULL;
