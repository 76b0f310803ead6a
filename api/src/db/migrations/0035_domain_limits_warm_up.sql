-- Per-domain limits and warm-up (issue 28; docs/decisions/sending.md, "Domain limits" and "Warm-up").
--
-- 1. Domain limits (DOMAIN_RATE_LIMITS). Each capped receiving domain has a schedule of its own, shared
--    by every worker as send_rate is: reserve_domain_slots hands a claim's capped jobs their slots (one
--    statement for the whole claim, rows locked in domain order), however far ahead the domain's
--    schedule already runs. A job whose slot is near is sent at it; one whose slot is further ahead is
--    given back to the queue without counting an attempt, keeps its slot (domain_slot_at) and is
--    published again to come back before it, so mail for other domains keeps flowing meanwhile and a
--    deferred job is not deferred again and again behind newer ones.
CREATE TABLE domain_send_rate (
  domain       text PRIMARY KEY,
  next_slot_at timestamptz NOT NULL
);

ALTER TABLE campaign_jobs ADD COLUMN domain_slot_at timestamptz;

-- Slots for `wanted[i]` mails to `domains[i]` at `rates[i]` a second (the domains in any order, each
-- once): the first slot's time (epoch milliseconds) and the spacing per domain.
CREATE FUNCTION reserve_domain_slots(domains text[], wanted integer[], rates double precision[])
RETURNS TABLE (domain text, first_at_ms double precision, spacing_ms double precision)
LANGUAGE plpgsql AS $$
DECLARE
  now_at timestamptz := clock_timestamp();
  start_at timestamptz;
  i integer;
BEGIN
  INSERT INTO domain_send_rate AS s (domain, next_slot_at)
  SELECT d, '-infinity' FROM unnest(domains) d ORDER BY d
  ON CONFLICT ON CONSTRAINT domain_send_rate_pkey DO NOTHING;
  PERFORM 1 FROM domain_send_rate s WHERE s.domain = ANY (domains) ORDER BY s.domain FOR UPDATE;
  FOR i IN 1 .. coalesce(array_length(domains, 1), 0) LOOP
    SELECT greatest(s.next_slot_at, now_at) INTO start_at FROM domain_send_rate s WHERE s.domain = domains[i];
    UPDATE domain_send_rate s SET next_slot_at = start_at + make_interval(secs => wanted[i] / rates[i]) WHERE s.domain = domains[i];
    domain := domains[i];
    first_at_ms := extract(epoch FROM start_at)::double precision * 1000;
    spacing_ms := 1000 / rates[i];
    RETURN NEXT;
  END LOOP;
END $$;

-- 2. The domain table of the report (an addition): per campaign and receiving domain, the mails that
--    waited for the domain's limit in place (limit_waits), those given back to the queue for a later
--    slot (deferrals) and SES's 429s (ses_throttles). Written with the outcomes of a claim, in the
--    same statement, so a record run twice counts nothing twice.
CREATE TABLE campaign_domain_throttles (
  campaign_id   bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  domain        text NOT NULL,
  limit_waits   bigint NOT NULL DEFAULT 0,
  deferrals     bigint NOT NULL DEFAULT 0,
  ses_throttles bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, domain)
);

-- 3. Warm-up (WARMUP_START, WARMUP_FACTOR, WARMUP_START_DATE): the day's mails of every worker are
--    counted in the one send_rate row, under the (UTC) date the worker's plan says it is; a new date
--    starts the count again. The reservation grants no more than the day's volume leaves.
ALTER TABLE send_rate
  ADD COLUMN warm_up_date date,
  ADD COLUMN warm_up_sent bigint NOT NULL DEFAULT 0;

DROP FUNCTION reserve_send_slots(integer, double precision, double precision, integer);

-- Same as in 0031, with the warm-up's day (`day`, null without a plan) and volume.
CREATE FUNCTION reserve_send_slots(wanted integer, max_rate double precision, horizon_ms double precision, returned integer,
                                   day date DEFAULT NULL, day_volume bigint DEFAULT NULL)
RETURNS TABLE (granted integer, first_at_ms double precision, wait_ms double precision, spacing_ms double precision,
               quota_reached boolean, warm_up_reached boolean)
LANGUAGE plpgsql AS $$
DECLARE
  r send_rate;
  now_at timestamptz := clock_timestamp();
  rate double precision;
  start_at timestamptz;
  ahead_ms double precision;
  n integer := wanted;
BEGIN
  SELECT * INTO STRICT r FROM send_rate WHERE id FOR UPDATE;
  r.quota_left := r.quota_left + returned;
  r.reserved_total := r.reserved_total - returned;
  IF day IS NOT NULL THEN
    -- Missed slots of the same day go back to its volume; a new day starts from none.
    r.warm_up_sent := CASE WHEN r.warm_up_date = day THEN greatest(0, r.warm_up_sent - returned) ELSE 0 END;
    r.warm_up_date := day;
  END IF;
  rate := max_rate * send_rate_pace(r.slowdown, r.ceiling, r.slowed_at, now_at);
  start_at := greatest(r.next_slot_at, now_at);
  ahead_ms := extract(epoch FROM start_at - now_at)::double precision * 1000;
  IF ahead_ms > horizon_ms THEN
    n := 0;
    RETURN QUERY SELECT 0, 0::double precision, ahead_ms - horizon_ms, 0::double precision, false, false;
  ELSE
    IF r.quota_left IS NOT NULL THEN
      n := least(n, greatest(0, floor(r.quota_left))::integer);
    END IF;
    IF day IS NOT NULL AND n > 0 THEN
      n := least(n, greatest(0, day_volume - r.warm_up_sent)::integer);
      IF n <= 0 THEN
        n := 0;
        RETURN QUERY SELECT 0, 0::double precision, 0::double precision, 0::double precision, false, true;
      END IF;
    END IF;
    IF n > 0 THEN
      RETURN QUERY SELECT n, (extract(epoch FROM start_at) * 1000)::double precision, 0::double precision, 1000 / rate, false, false;
    ELSE
      RETURN QUERY SELECT 0, 0::double precision, 0::double precision, 0::double precision, true, false;
    END IF;
  END IF;
  IF n > 0 OR returned <> 0 OR r.warm_up_date IS DISTINCT FROM (SELECT warm_up_date FROM send_rate WHERE id) THEN
    UPDATE send_rate
       SET next_slot_at = CASE WHEN n > 0 THEN start_at + make_interval(secs => n / rate) ELSE next_slot_at END,
           quota_left = r.quota_left - n,
           reserved_total = r.reserved_total + n,
           warm_up_date = r.warm_up_date,
           warm_up_sent = r.warm_up_sent + CASE WHEN day IS NOT NULL THEN n ELSE 0 END
     WHERE id;
  END IF;
END $$;

-- 4. Why a SENDING campaign with quota_paused_until is paused: SES's daily quota (DAILY_QUOTA), or the
--    warm-up's volume for the day (WARM_UP). The list and the report say which.
ALTER TABLE campaigns
  ADD COLUMN paused_for text CHECK (paused_for IN ('DAILY_QUOTA', 'WARM_UP'));
UPDATE campaigns SET paused_for = 'DAILY_QUOTA' WHERE quota_paused_until IS NOT NULL;

-- 5. The exact time the daily quota frees up: SES counts a mail for 24 hours from when it took it, so
--    the first mail of ours to leave the window is the oldest minute here. Mails handed to SES per
--    minute (written with the outcomes of each claim, one row a minute), kept 25 hours by the sweep:
--    campaign_hourly_counts put the resume time at the end of the oldest hour, up to an hour late.
CREATE TABLE send_minute_counts (
  minute timestamptz PRIMARY KEY,
  sent   bigint NOT NULL
);
