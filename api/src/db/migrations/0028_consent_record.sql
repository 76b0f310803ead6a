-- The consent record and the preference centre (issue 25, second part; docs/decisions/sign-up.md).
--
-- consent_ledger records every change of a person's subscription, not only sign-ups:
--  - IMPORTED: one entry per import, for every contact it brought (address_key and email are null):
--    the member who imported, the lawful basis chosen in the wizard and how many contacts came in. One
--    entry rather than a million keeps the import at the speed of COPY; a contact's history joins it.
--  - ADDED: a member added the contact by hand (member_email, lawful_basis).
--  - PREFERENCES: the person changed something in the preference centre (detail says what).
--  - UNSUBSCRIBED / RESUBSCRIBED: the person left an audience (audience_id), or everything (audience_id
--    null: the organisation-wide unsubscribe), or came back through a confirmed sign-up.
--  - SUPPRESSED: a hard bounce, a complaint or a member put the address on the suppression list
--    (audience_id null: it holds for every audience); detail names the reason.
-- An entry with a null audience_id concerns the person in every audience.
ALTER TABLE consent_ledger DROP CONSTRAINT consent_ledger_event_check;
ALTER TABLE consent_ledger ADD CONSTRAINT consent_ledger_event_check CHECK (event IN (
  'SUBSCRIBED', 'CONFIRMED', 'IMPORTED', 'ADDED', 'PREFERENCES', 'UNSUBSCRIBED', 'RESUBSCRIBED', 'SUPPRESSED', 'ERASED'));
ALTER TABLE consent_ledger ALTER COLUMN audience_id DROP NOT NULL;
ALTER TABLE consent_ledger ALTER COLUMN address_key DROP NOT NULL;
ALTER TABLE consent_ledger ALTER COLUMN email DROP NOT NULL;
ALTER TABLE consent_ledger ADD COLUMN member_email text;
ALTER TABLE consent_ledger ADD COLUMN lawful_basis text;
ALTER TABLE consent_ledger ADD COLUMN contacts integer;
ALTER TABLE consent_ledger ADD COLUMN detail jsonb;
-- Only an import's entry names nobody; every other entry names its person, an import's always its audience.
ALTER TABLE consent_ledger ADD CONSTRAINT consent_ledger_names_person CHECK (
  (event = 'IMPORTED' AND address_key IS NULL AND email IS NULL AND audience_id IS NOT NULL)
  OR (event <> 'IMPORTED' AND address_key IS NOT NULL AND email IS NOT NULL));
-- A person's entries across audiences (the organisation-wide ones, the people page).
CREATE INDEX consent_ledger_by_address ON consent_ledger (address_key, id) WHERE address_key IS NOT NULL;
-- An audience's import entries.
CREATE INDEX consent_ledger_imports ON consent_ledger (audience_id, id) WHERE event = 'IMPORTED';

-- The erasure's one permitted change (migration 0027), now that audience_id may be null.
CREATE OR REPLACE FUNCTION consent_ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('mailroom.erasure', true) = 'on'
     AND (NEW.id, NEW.event, NEW.created_at) = (OLD.id, OLD.event, OLD.created_at)
     AND NEW.audience_id IS NOT DISTINCT FROM OLD.audience_id
     AND NEW.form_id IS NOT DISTINCT FROM OLD.form_id
     AND NEW.form_name IS NOT DISTINCT FROM OLD.form_name
     AND NEW.consent_version IS NOT DISTINCT FROM OLD.consent_version
     AND NEW.wording IS NOT DISTINCT FROM OLD.wording
     AND NEW.member_email IS NOT DISTINCT FROM OLD.member_email
     AND NEW.lawful_basis IS NOT DISTINCT FROM OLD.lawful_basis
     AND NEW.contacts IS NOT DISTINCT FROM OLD.contacts
     AND NEW.email LIKE 'erased:%' AND NEW.client_address IS NULL AND NEW.user_agent IS NULL THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the consent ledger is append-only';
END $$;

-- A person may leave one audience (the preference centre) without leaving the organisation's others:
-- the contact stays, with the time it left, and no campaign of the audience reaches it until the person
-- switches it on again. A nullable column without a default: adding it rewrites nothing.
ALTER TABLE contacts ADD COLUMN unsubscribed_at timestamptz;

-- The name a person sees for the audience in the preference centre. An audience without one is the
-- organisation's own business and is not shown there.
ALTER TABLE audiences ADD COLUMN public_name text;
