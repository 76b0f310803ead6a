-- An erasure (migration 0022) reaches what sign-ups hold (migration 0026):
--  - pending_signups: the waiting sign-ups of the address go, with their values;
--  - signup_mails: the limits' record names the erased key, so the limits still hold for an hour and a day;
--  - consent_ledger: its entries name the erased key instead of the address, without the client address and
--    agent; the wording, the form and the times stay, and an ERASED entry is appended per audience. The ledger
--    stays append-only but for that one change, made only inside an erasure's transaction (mailroom.erasure).
ALTER TABLE consent_ledger DROP CONSTRAINT consent_ledger_event_check;
ALTER TABLE consent_ledger ADD CONSTRAINT consent_ledger_event_check CHECK (event IN ('SUBSCRIBED', 'CONFIRMED', 'ERASED'));

CREATE OR REPLACE FUNCTION consent_ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('mailroom.erasure', true) = 'on'
     AND (NEW.id, NEW.audience_id, NEW.event, NEW.created_at) = (OLD.id, OLD.audience_id, OLD.event, OLD.created_at)
     AND NEW.form_id IS NOT DISTINCT FROM OLD.form_id
     AND NEW.form_name IS NOT DISTINCT FROM OLD.form_name
     AND NEW.consent_version IS NOT DISTINCT FROM OLD.consent_version
     AND NEW.wording IS NOT DISTINCT FROM OLD.wording
     AND NEW.email LIKE 'erased:%' AND NEW.client_address IS NULL AND NEW.user_agent IS NULL THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the consent ledger is append-only';
END $$;
