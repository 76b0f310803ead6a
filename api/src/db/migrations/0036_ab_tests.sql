-- A/B tests judged by people (issue 28; docs/decisions/ab-tests.md).
--
-- A campaign may carry an A/B test: two to four variants of its subject, preview text, sender name or
-- template. At send a test share of the recipients is frozen, split evenly at random among the
-- variants (the variant is written in the same INSERT ... SELECT that creates the jobs, so a restart
-- or a retry never changes it); the rest waits. After the wait the winner, judged on people's opens or
-- clicks only (campaign_jobs.human_opened_at / human_clicked_at), goes to the rest exactly once.
CREATE TABLE campaign_ab_tests (
  campaign_id     bigint PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
  -- Percent of the recipients sent the test phase; the rest waits for the winner.
  test_share      integer NOT NULL CHECK (test_share BETWEEN 10 AND 50),
  wait_hours      integer NOT NULL CHECK (wait_hours BETWEEN 1 AND 72),
  -- What a variant wins by: people's opens or people's clicks (machines never count).
  measure         text NOT NULL CHECK (measure IN ('PEOPLE_OPENS', 'PEOPLE_CLICKS')),
  -- The variant that goes when none wins at 95 % confidence (0-based position).
  default_variant integer NOT NULL CHECK (default_variant BETWEEN 0 AND 3),
  -- The split's seed, drawn once when the test is made: the same seed gives the same split.
  seed            integer NOT NULL,
  -- When the test phase was sent and when its wait ends (null before the send).
  started_at      timestamptz,
  ends_at         timestamptz,
  -- The variant sent to the rest, when and how it was chosen (null until decided).
  winner          integer CHECK (winner BETWEEN 0 AND 3),
  decided_at      timestamptz,
  decided_by      text CHECK (decided_by IN ('AUTOMATIC', 'MEMBER')),
  -- The verdict as decided: its rule, confidence and each variant's figures then (the report shows it).
  verdict         jsonb,
  CHECK ((winner IS NULL) = (decided_at IS NULL))
);
-- The periodic decision reads the tests whose wait is over and that are not decided.
CREATE INDEX campaign_ab_tests_due ON campaign_ab_tests (ends_at) WHERE winner IS NULL AND ends_at IS NOT NULL;

CREATE TABLE campaign_variants (
  campaign_id  bigint NOT NULL REFERENCES campaign_ab_tests (campaign_id) ON DELETE CASCADE,
  position     integer NOT NULL CHECK (position BETWEEN 0 AND 3),
  -- What this variant changes; null keeps the campaign's own.
  subject      text CHECK (subject !~ '[\r\n]'),
  preview_text text CHECK (preview_text !~ '[\r\n]'),
  from_name    text CHECK (from_name !~ '[\r\n]'),
  template_id  bigint REFERENCES templates (id) ON DELETE SET NULL,
  -- A template variant's html and plain text as sent (with link ids), snapshotted at send.
  html         text,
  plain_text   text,
  PRIMARY KEY (campaign_id, position)
);

-- The variant a job's mail is (null: the campaign has no A/B test).
ALTER TABLE campaign_jobs ADD COLUMN variant integer CHECK (variant BETWEEN 0 AND 3);
