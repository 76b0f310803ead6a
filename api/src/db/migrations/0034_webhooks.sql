-- Signed outgoing webhooks (issue 27; docs/decisions/webhooks.md).
--
-- An endpoint an admin registered, with the events it wants and its signing secret. The secret is kept as
-- given to the member (whsec_ + base64): the worker needs its bytes to sign every delivery, so a hash would
-- not do.
CREATE TABLE webhook_endpoints (
  id               bigserial   PRIMARY KEY,
  url              text        NOT NULL,
  events           text[]      NOT NULL,
  description      text        NOT NULL DEFAULT '',
  secret           text        NOT NULL,
  enabled          boolean     NOT NULL DEFAULT true,
  created_by_email text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

-- One event for one endpoint: the outbox and the delivery log in one row. Written by the triggers below in
-- the transaction that records the fact, so a committed fact always has its deliveries and a rolled-back one
-- none. message_id is the Standard Webhooks `webhook-id`: every attempt of a delivery (and every duplicate
-- an outage causes) carries the same one. address_key (the person's, when the event names one) lets an
-- erasure scrub the address from deliveries still kept.
CREATE TABLE webhook_deliveries (
  id              bigserial   PRIMARY KEY,
  message_id      text        NOT NULL UNIQUE DEFAULT ('msg_' || replace(gen_random_uuid()::text, '-', '')),
  endpoint_id     bigint      NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type      text        NOT NULL,
  payload         jsonb       NOT NULL,
  address_key     text,
  status          text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempts        integer     NOT NULL DEFAULT 0,
  -- When the next attempt is due; the worker's poller publishes due deliveries (retries wait here, not in
  -- a consumer).
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Published or being attempted until then: the poller leaves it alone; past it (a lost message, a dead
  -- worker) it is due again.
  lease_until     timestamptz,
  -- The attempt running now (a worker's token): a redelivered message finds it taken and does nothing.
  claim_token     text,
  -- Retries stop here (24 hours after the event, or after a member's re-send); the delivery is then FAILED.
  give_up_at      timestamptz NOT NULL DEFAULT now() + interval '24 hours',
  last_status     integer,
  last_error      text,
  delivered_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
-- The poller's range: only pending deliveries are in it.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';
-- An endpoint's log, newest first; its failed ones.
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (endpoint_id, id DESC) WHERE status = 'FAILED';
CREATE INDEX webhook_deliveries_person ON webhook_deliveries (address_key) WHERE address_key IS NOT NULL;

-- Every attempt of a delivery: when, how long, what the endpoint answered or why it could not.
CREATE TABLE webhook_attempts (
  id          bigserial   PRIMARY KEY,
  delivery_id bigint      NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt     integer     NOT NULL,
  started_at  timestamptz NOT NULL,
  duration_ms integer     NOT NULL,
  status      integer,
  error       text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt);

-- One delivery per enabled endpoint that wants `event_type`. With no endpoint it reads one tiny table and
-- writes nothing, so the facts it hangs on cost nothing more for an organisation that sets none up.
-- ($1: the event's type, $2: its data, $3: the person's address key or null.)
CREATE FUNCTION webhook_emit(text, jsonb, text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO webhook_deliveries (endpoint_id, event_type, payload, address_key)
  SELECT e.id, $1, jsonb_build_object('type', $1, 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', $2), $3
    FROM webhook_endpoints e
   WHERE e.enabled AND $1 = ANY (e.events)
$$;

-- Contact events, import finished, and a suppression's bounce or complaint are all recorded in the consent
-- ledger (migration 0028): its entries are the facts.
CREATE FUNCTION webhook_from_consent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CASE NEW.event
    -- Subscribed: through a form (SUBSCRIBED), added by a member (ADDED), or back through a sign-up (RESUBSCRIBED).
    WHEN 'SUBSCRIBED', 'ADDED', 'RESUBSCRIBED' THEN
      PERFORM webhook_emit('contact.subscribed',
        jsonb_strip_nulls(jsonb_build_object('email', NEW.email, 'audienceId', NEW.audience_id, 'formId', NEW.form_id,
                                             'formName', NEW.form_name, 'source', CASE NEW.event WHEN 'SUBSCRIBED' THEN 'form'
                                             WHEN 'ADDED' THEN 'member' ELSE 'resubscribed' END)),
        NEW.address_key);
    WHEN 'CONFIRMED', 'UNSUBSCRIBED' THEN
      PERFORM webhook_emit('contact.' || lower(NEW.event),
        jsonb_strip_nulls(jsonb_build_object('email', NEW.email, 'audienceId', NEW.audience_id, 'formId', NEW.form_id,
                                             'formName', NEW.form_name)),
        NEW.address_key);
    WHEN 'ERASED' THEN
      -- The entry holds the erased key, never the address: so does the event.
      PERFORM webhook_emit('contact.erased', jsonb_build_object('erasedKey', NEW.email, 'audienceId', NEW.audience_id), NEW.address_key);
    WHEN 'IMPORTED' THEN
      PERFORM webhook_emit('import.finished',
        jsonb_build_object('audienceId', NEW.audience_id, 'contacts', NEW.contacts, 'memberEmail', NEW.member_email), NULL);
    ELSE
      NULL;
  END CASE;
  RETURN NULL;
END $$;
CREATE TRIGGER consent_ledger_webhooks AFTER INSERT ON consent_ledger
  FOR EACH ROW EXECUTE FUNCTION webhook_from_consent();

-- Bounces and complaints as SES reports them on the mail's job (every bounce, soft ones too). `UPDATE OF`
-- and WHEN keep the sending path's updates of the job free of it.
CREATE FUNCTION webhook_from_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.bounce_time IS DISTINCT FROM OLD.bounce_time AND NEW.bounce_type IS NOT NULL THEN
    PERFORM webhook_emit('contact.bounced',
      jsonb_strip_nulls(jsonb_build_object('email', NEW.email, 'campaignId', NEW.campaign_id, 'contactId', NEW.contact_id,
                                           'bounceType', NEW.bounce_type, 'message', NEW.bounce_message)),
      address_key(NEW.email));
  END IF;
  IF NEW.complaint_time IS DISTINCT FROM OLD.complaint_time AND NEW.complaint_time IS NOT NULL THEN
    PERFORM webhook_emit('contact.complained',
      jsonb_strip_nulls(jsonb_build_object('email', NEW.email, 'campaignId', NEW.campaign_id, 'contactId', NEW.contact_id,
                                           'complaintType', NEW.complaint_type)),
      address_key(NEW.email));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER campaign_jobs_webhooks AFTER UPDATE OF bounce_time, complaint_time ON campaign_jobs
  FOR EACH ROW WHEN (NEW.bounce_time IS DISTINCT FROM OLD.bounce_time OR NEW.complaint_time IS DISTINCT FROM OLD.complaint_time)
  EXECUTE FUNCTION webhook_from_job();

-- A campaign becomes SENT in one place (the sweep's finishIfDone), as one update of its row.
CREATE FUNCTION webhook_from_campaign() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit('campaign.sent',
    jsonb_build_object('campaignId', NEW.id, 'name', NEW.name, 'audienceId', NEW.audience_id, 'recipients', NEW.contact_count,
                       'sent', NEW.jobs_sent, 'failed', NEW.jobs_failed),
    NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER campaigns_webhooks AFTER UPDATE OF status ON campaigns
  FOR EACH ROW WHEN (NEW.status = 'SENT' AND OLD.status IS DISTINCT FROM 'SENT')
  EXECUTE FUNCTION webhook_from_campaign();
