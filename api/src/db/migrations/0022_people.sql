-- One person across audiences (issue 24; services/people): finding an address everywhere, handing over
-- what is held about it (GDPR article 15) and erasing it (article 17). docs/decisions/people.md.

-- What an erased address leaves behind: 'erased:' and the SHA-256 of its fold (address_key), in hex,
-- then the folded domain. A later import or send of the same address computes the same key from the
-- address, so the suppression list still recognises it; nothing turns the key back into the address
-- (short of guessing the address and hashing the guess, which is how a later import matches it).
-- The domain stays because the reports' per-domain figures (campaign_domain_counts) keep it anyway.
-- An erased mail keeps its own domain as stored (erased_job_email), so recipient_domain() of the
-- mail, and with it every per-domain figure, is unchanged; address_key() of it is this key.
-- The bytes hashed are the fold's in the database's encoding (UTF-8): replace(..., '\', '\\')::bytea
-- is an immutable way to them (convert_to() is only stable, which would keep this function from
-- being inlined into the statements that probe the suppressions per contact). ':' cannot stand
-- unquoted before an '@', so no importable address looks like a key.
CREATE FUNCTION erased_key(address text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 'erased:' || encode(sha256(replace(address_key(address), '\', '\\')::bytea), 'hex')
       || CASE WHEN strpos(address, '@') > 0 THEN '@' || split_part(address_key(address), '@', -1) ELSE '' END;

-- The address a mail to an erased address keeps: the key's hash and the mail's own domain.
CREATE FUNCTION erased_job_email(address text, job_email text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 'erased:' || encode(sha256(replace(address_key(address), '\', '\\')::bytea), 'hex') || '@' || split_part(job_email, '@', -1);

-- The erased key stays on the suppression list with the reason ERASED and the date of the erasure.
-- The reason it was suppressed for before (if it was) is kept beside it: a campaign's unsubscribes are
-- its UNSUBSCRIBE suppressions, and a report's figures stay as they were when the person is erased.
ALTER TABLE suppressions DROP CONSTRAINT suppressions_reason_check;
ALTER TABLE suppressions ADD CONSTRAINT suppressions_reason_check
  CHECK (reason IN ('UNSUBSCRIBE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER', 'ERASED'));
ALTER TABLE suppressions ADD COLUMN reason_before_erasure text
  CHECK (reason_before_erasure IN ('UNSUBSCRIBE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER'));
INSERT INTO suppression_counts (reason, suppressions) VALUES ('ERASED', 0);
DROP INDEX suppressions_unsubscribed_campaign;
CREATE INDEX suppressions_unsubscribed_campaign ON suppressions (campaign_id)
 WHERE reason = 'UNSUBSCRIBE' OR reason_before_erasure = 'UNSUBSCRIBE';

-- A campaign's mails to erased addresses, found without reading its other mails: a report counts its
-- NOT_SENT contacts as the audience's valid contacts less the campaign's mails, every mail being one
-- of those contacts; a mail to an erased person stays (its figures with it) while its contact goes,
-- so the count adds these back. Only erased mails are in it: nothing for a send to maintain.
CREATE INDEX campaign_jobs_erased ON campaign_jobs (campaign_id) WHERE starts_with(email, 'erased:');

-- An address's mails, for the person's page and the erasure: one probe instead of a scan of every job.
-- A migration runs in a transaction, so this takes a SHARE lock on campaign_jobs while it builds:
-- sends and hits wait (measured in docs/decisions/people.md). An installation with many jobs builds it
-- beforehand, without the lock, and this line then finds it:
--   CREATE INDEX CONCURRENTLY campaign_jobs_email_key ON campaign_jobs (address_key(email));
CREATE INDEX IF NOT EXISTS campaign_jobs_email_key ON campaign_jobs (address_key(email));

-- The activity log stays append-only, but for one change: an erasure (which sets mailroom.erasure for
-- its transaction) may put the erased key where an entry named the address (the member column of a
-- recipient's unsubscribe, the name of a removed suppression, an export's search), and nothing else.
CREATE OR REPLACE FUNCTION activity_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mailroom.erasure', true) = 'on'
     AND (NEW.id, NEW.created_at, NEW.kind, NEW.object_type) = (OLD.id, OLD.created_at, OLD.kind, OLD.object_type)
     AND NEW.object_id IS NOT DISTINCT FROM OLD.object_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the activity log is append-only';
END $$;

-- SES events may arrive for a mail sent before its address was erased: a run of soft bounces is then
-- not kept under the address (the erased key already suppresses it).
CREATE OR REPLACE FUNCTION soft_bounce_counted(address text, message_id text, max_bounces integer, from_campaign bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  streak integer;
  added integer;
BEGIN
  IF EXISTS (SELECT 1 FROM suppressions WHERE email_lower = erased_key(address)) THEN
    RETURN false;
  END IF;
  INSERT INTO soft_bounce_streaks AS s (email_lower, bounces, last_message_id)
  VALUES (address_key(address), 1, message_id)
  ON CONFLICT (email_lower) DO UPDATE
    SET bounces = s.bounces + 1, last_message_id = excluded.last_message_id, updated_at = now()
    WHERE s.last_message_id <> excluded.last_message_id
  RETURNING bounces INTO streak;
  IF streak IS NULL OR streak < max_bounces THEN
    RETURN false;
  END IF;
  DELETE FROM soft_bounce_streaks WHERE email_lower = address_key(address);
  INSERT INTO suppressions (email_lower, reason, campaign_id) VALUES (address_key(address), 'SOFT_BOUNCE', from_campaign)
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added = 1;
END $$;
