-- The whole record of Mailroom (docs/architecture.md, Data; Sending, at most once per job). PostgreSQL is the source of truth;
-- RabbitMQ only carries work. Counters that lists show are kept on the parent rows so that a
-- page of a million-row audience or campaign never counts rows.

CREATE TABLE audiences (
  id                             bigserial PRIMARY KEY,
  name                           text NOT NULL,
  headers                        jsonb NOT NULL DEFAULT '[]'::jsonb,   -- contact field names, file order, without the email column
  source                         text CHECK (source IN ('CSV', 'TEXT', 'BIG_QUERY', 'FILTERS')),
  number_of_contacts             integer NOT NULL DEFAULT 0,
  number_of_contacts_with_errors integer NOT NULL DEFAULT 0,
  is_importing                   boolean NOT NULL DEFAULT false,
  import_error_message           text,
  deleted_at                     timestamptz,                          -- set at once on delete; contacts are purged in the background
  created_by_email               text,
  created_at                     timestamptz NOT NULL DEFAULT now(),
  updated_at                     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audiences_live_created ON audiences (created_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE contacts (
  id            bigserial PRIMARY KEY,
  audience_id   bigint NOT NULL REFERENCES audiences (id),
  email         text NOT NULL,
  error_message text,                                                  -- present means invalid (bad address, duplicate...)
  data          jsonb NOT NULL DEFAULT '{}'::jsonb                     -- header name -> value
);
CREATE INDEX contacts_audience_id ON contacts (audience_id, id);

CREATE TABLE templates (
  id               bigserial PRIMARY KEY,
  name             text NOT NULL,
  design           jsonb,
  html             text,
  plain_text       text,
  preview          text,                                               -- image (data URL) of the first screen
  updated_by_email text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX templates_updated ON templates (updated_at DESC, id DESC);

CREATE TABLE campaigns (
  id               bigserial PRIMARY KEY,
  name             text NOT NULL,
  status           text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'SENDING', 'SENT', 'ERROR')),
  audience_id      bigint REFERENCES audiences (id) ON DELETE SET NULL,
  template_id      bigint REFERENCES templates (id) ON DELETE SET NULL,
  from_name        text,
  from_email       text,
  subject          text,
  preview_text     text,
  html             text,                                               -- snapshot taken at send time
  plain_text       text,
  error_message    text,
  delivery_date    timestamptz,
  contact_count    integer NOT NULL DEFAULT 0,                         -- jobs created for this campaign
  jobs_sent        integer NOT NULL DEFAULT 0,
  jobs_failed      integer NOT NULL DEFAULT 0,
  unique_opens     integer NOT NULL DEFAULT 0,
  unique_clicks    integer NOT NULL DEFAULT 0,
  updated_by_email text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaigns_updated ON campaigns (updated_at DESC, id DESC);

-- One row per contact per campaign: the unit of sending, sent at most once (docs/architecture.md, Data; Sending, at most once per job).
CREATE TABLE campaign_jobs (
  id              bigserial PRIMARY KEY,
  campaign_id     bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  contact_id      bigint NOT NULL,
  email           text NOT NULL,
  status          text NOT NULL DEFAULT 'QUEUED'
                  CHECK (status IN ('QUEUED', 'SENDING', 'SENT_WAIT_ACK', 'SENT_SUCCESS', 'FAILED', 'UNKNOWN')),
  ses_message_id  text UNIQUE,
  attempts        integer NOT NULL DEFAULT 0,
  error_message   text,
  bounce_type     text CHECK (bounce_type IN ('HARD', 'SOFT')),
  bounce_message  text,
  bounce_time     timestamptz,
  complaint_type  text,
  complaint_time  timestamptz,
  opened_at       timestamptz,
  clicked_at      timestamptz,
  claimed_at      timestamptz,
  sent_at         timestamptz,
  not_before      timestamptz,                                         -- throttled jobs wait until then
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (campaign_id, contact_id)
);
CREATE INDEX campaign_jobs_campaign_status ON campaign_jobs (campaign_id, status, id);

CREATE TABLE campaign_links (
  id            bigserial PRIMARY KEY,
  campaign_id   bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  href          text NOT NULL,
  position      integer NOT NULL,                                      -- order of the link in the html
  clicks        integer NOT NULL DEFAULT 0,
  unique_clicks integer NOT NULL DEFAULT 0,
  UNIQUE (campaign_id, position)
);

CREATE TABLE tracking_events (
  id          bigserial PRIMARY KEY,
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  job_id      bigint NOT NULL REFERENCES campaign_jobs (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('OPEN', 'CLICK')),
  link_id     bigint REFERENCES campaign_links (id) ON DELETE CASCADE,
  user_agent  text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tracking_events_job ON tracking_events (job_id, kind);
CREATE INDEX tracking_events_link ON tracking_events (link_id) WHERE link_id IS NOT NULL;

-- Addresses the organisation never mails again: hard bounces, complaints, unsubscribes.
CREATE TABLE suppressions (
  email_lower text PRIMARY KEY,
  reason      text NOT NULL CHECK (reason IN ('HARD_BOUNCE', 'COMPLAINT', 'UNSUBSCRIBE')),
  campaign_id bigint,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- SNS delivers at least once: a message id seen before is ignored.
CREATE TABLE sns_messages (
  message_id  text PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now()
);
