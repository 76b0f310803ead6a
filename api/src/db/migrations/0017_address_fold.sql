-- One fold of an address for every comparison: suppressions (their key), sending, follow-ups, the
-- counts of suppressed contacts, unsubscribe, SES events, soft-bounce streaks and address searches.
--
-- lower() follows the database's collation, so it folded 'ΟΔΟΣ' to 'οδοσ' and 'İX' to 'ix' on a
-- C.UTF-8 database, otherwise on another locale or build, and otherwise than the JavaScript that
-- stored some of the keys ('οδος', 'i̇x'): a suppressed address was mailed. address_key names its
-- collations: ICU's root locale (Unicode's default lower-casing, the one JavaScript applies, final
-- sigma included) for an address with a letter beyond ASCII, and "C" (ASCII letters only, the same
-- result, several times faster) for the rest, nearly all of them. Not STRICT, so that PostgreSQL
-- inlines it into queries and index expressions (a strict function whose body is a CASE is called
-- instead, a statement per row).
CREATE FUNCTION address_key(address text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN octet_length(address) = char_length(address) THEN lower(address COLLATE "C") COLLATE "default"
            ELSE lower(address COLLATE "und-x-icu") COLLATE "default" END;

-- Nobody suppressed becomes mailable: an address of a contact or a mail whose earlier key (lower()
-- as this database folds it, which is what sending compared) is suppressed is suppressed under its
-- new key too, with the same reason, campaign, time and member.
INSERT INTO suppressions (email_lower, reason, campaign_id, created_at, added_by_email)
SELECT DISTINCT ON (a.key) a.key, s.reason, s.campaign_id, s.created_at, s.added_by_email
  FROM (SELECT address_key(email) AS key, lower(email) AS earlier FROM contacts
         WHERE address_key(email) <> lower(email)
        UNION
        SELECT address_key(email), lower(email) FROM campaign_jobs
         WHERE address_key(email) <> lower(email)) a
  JOIN suppressions s ON s.email_lower = a.earlier
 ORDER BY a.key, s.created_at
ON CONFLICT (email_lower) DO NOTHING;

-- Keys stored by an earlier fold become their address_key. Where two rows meet on one key, the first
-- added stays and keeps its reason, as an address suppressed again keeps its first one.
DELETE FROM suppressions s USING suppressions o
 WHERE address_key(o.email_lower) = address_key(s.email_lower)
   AND o.id < s.id
   AND (s.email_lower <> address_key(s.email_lower) OR o.email_lower <> address_key(o.email_lower));
UPDATE suppressions SET email_lower = address_key(email_lower) WHERE email_lower <> address_key(email_lower);
UPDATE suppression_removals SET email_lower = address_key(email_lower) WHERE email_lower <> address_key(email_lower);
-- A run of soft bounces under an earlier key starts again (at worst one more mail to a bouncing address).
DELETE FROM soft_bounce_streaks WHERE email_lower <> address_key(email_lower);

CREATE OR REPLACE FUNCTION soft_bounce_counted(address text, message_id text, max_bounces integer, from_campaign bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  streak integer;
  added integer;
BEGIN
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

-- The contacts' address indexes (searches, migration 0002; suppressed contacts, migration 0008) on the new key.
DROP INDEX contacts_email_trgm;
CREATE INDEX contacts_email_trgm ON contacts USING gin (address_key(email) gin_trgm_ops);
DROP INDEX contacts_audience_email_lower;
CREATE INDEX contacts_audience_email_key ON contacts (audience_id, address_key(email));
