-- Sign-up forms and double opt-in (issue 25; services/subscriptions, docs/decisions/sign-up.md).
--
-- A form belongs to an audience and has a public slug: a readable prefix and 16 random base32 characters
-- (80 bits), so forms cannot be found by counting. `fields` lists the audience fields it asks for
-- ([{ "key": ..., "required": bool }]); the email is always asked and is not listed.
CREATE TABLE signup_forms (
  id                    bigserial PRIMARY KEY,
  audience_id           bigint  NOT NULL REFERENCES audiences (id) ON DELETE CASCADE,
  slug                  text    NOT NULL UNIQUE,
  name                  text    NOT NULL,
  description           text    NOT NULL DEFAULT '',
  fields                jsonb   NOT NULL DEFAULT '[]'::jsonb,
  confirmation_required boolean NOT NULL DEFAULT true,
  -- What the person sees after submitting: a message, or a page of the organisation (an allowed origin).
  success_message       text    NOT NULL,
  success_url           text,
  allowed_origins       jsonb   NOT NULL DEFAULT '[]'::jsonb,
  mail_subject          text    NOT NULL,
  mail_text             text    NOT NULL,
  from_name             text    NOT NULL,
  from_email            text    NOT NULL,
  -- The wording shown now: the highest version in signup_form_wordings.
  consent_version       integer NOT NULL DEFAULT 1,
  created_by_email      text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signup_forms_by_audience ON signup_forms (audience_id, id);

-- Every consent wording a form has shown. A version that a sign-up or the ledger names is never
-- rewritten: editing the wording then adds the next version (services/subscriptions/form-service.ts).
CREATE TABLE signup_form_wordings (
  form_id    bigint  NOT NULL REFERENCES signup_forms (id) ON DELETE CASCADE,
  version    integer NOT NULL CHECK (version >= 1),
  wording    text    NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (form_id, version)
);

-- A submission waiting for its confirmation. Not a contact: no campaign, page or count of the audience
-- sees it. Confirming it appends a contact and removes the row; the sweep removes rows past the link's expiry.
CREATE TABLE pending_signups (
  id              bigserial PRIMARY KEY,
  form_id         bigint  NOT NULL REFERENCES signup_forms (id) ON DELETE CASCADE,
  audience_id     bigint  NOT NULL REFERENCES audiences (id) ON DELETE CASCADE,
  email           text    NOT NULL,
  data            jsonb   NOT NULL DEFAULT '{}'::jsonb,
  consent_version integer NOT NULL,
  client_address  text,
  user_agent      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL
);
CREATE INDEX pending_signups_expiry ON pending_signups (expires_at);
CREATE INDEX pending_signups_by_audience ON pending_signups (audience_id, address_key(email));

-- Every confirmation mail asked for (sent or not), per audience and folded address: the limits of one an
-- hour and three a day read it. Kept past the pending sign-up, so removing one does not reset the limits.
CREATE TABLE signup_mails (
  id          bigserial PRIMARY KEY,
  audience_id bigint NOT NULL REFERENCES audiences (id) ON DELETE CASCADE,
  address_key text   NOT NULL,
  pending_id  bigint,
  outcome     text   NOT NULL DEFAULT 'queued',
  message_id  text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signup_mails_by_address ON signup_mails (audience_id, address_key, created_at DESC);

-- Solved anti-abuse challenges, each taken once: kept until the challenge itself expires.
CREATE TABLE signup_used_challenges (
  signature  text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX signup_used_challenges_expiry ON signup_used_challenges (expires_at);

-- The consent ledger: every change of a person's subscription to an audience, appended and never edited.
-- No foreign keys: an entry outlives its form and its audience, and names what it needs (the form's name,
-- the wording itself) so it still proves what the person agreed to.
CREATE TABLE consent_ledger (
  id              bigserial PRIMARY KEY,
  audience_id     bigint      NOT NULL,
  address_key     text        NOT NULL,
  email           text        NOT NULL,
  event           text        NOT NULL CHECK (event IN ('SUBSCRIBED', 'CONFIRMED')),
  form_id         bigint,
  form_name       text,
  consent_version integer,
  wording         text,
  client_address  text,
  user_agent      text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX consent_ledger_by_person ON consent_ledger (audience_id, address_key, id);

CREATE FUNCTION consent_ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the consent ledger is append-only';
END $$;
CREATE TRIGGER consent_ledger_append_only BEFORE UPDATE OR DELETE ON consent_ledger
  FOR EACH ROW EXECUTE FUNCTION consent_ledger_refuse_change();
CREATE TRIGGER consent_ledger_no_truncate BEFORE TRUNCATE ON consent_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION consent_ledger_refuse_change();
