-- Pace to what SES allows (issue 28; docs/decisions/sending.md, "The shared rate adapts").
--
-- 1. The shared pace adapts to the rate SES really grants. SES answers 429 "Maximum sending rate
--    exceeded" when the account's real rate is lower than its MaxSendRate says (other senders share
--    it, SES lowers it for a while). The pace (a fraction of MaxSendRate, send_rate_pace) is then:
--     - cut at a throttle, at most once a second however many refusals arrive together:
--        - to 85 % of itself, the pace at the throttle kept as `ceiling` (where SES refused);
--        - when SES still refuses within two seconds of the last cut, the pace is far above what SES
--          grants: `ceiling` becomes what SES took since that cut (the pace times the share of calls
--          it did not refuse: slots reserved since the cut, less the refusals counted), and the pace
--          90 % of that (half the pace when fewer than 10 calls were made since). One step to the
--          right rate, where halving took several seconds of refusals;
--     - brought back linearly in 5 s to 95 % of the ceiling (just under where SES refused),
--     - and from there raised by 1 % of the ceiling per second, plus 0.1 % per second squared: the
--       probe that finds a rate SES gives back, whose next refusal costs a handful of calls. Near the
--       ceiling it is about linear (back at the ceiling 8.7 s after the cut, climbing 1.7 % of it a
--       second there); the longer SES takes everything the faster it climbs (twice the ceiling 33 s
--       after the cut, all of MaxSendRate from a fifth of it in about 64 s), so a ceiling measured too
--       low, or a rate SES gave back, is not crawled back to at 1 % a second.
--    The climb is by time without a throttle, not by counted successes: a statement per mail would
--    cost more than the rate it tunes. No pause of every worker any more: the cut alone leaves SES's
--    window room to refill, and a second's pause per refusal lost a second of sending each time.
ALTER TABLE send_rate
  ADD COLUMN ceiling double precision NOT NULL DEFAULT 1 CHECK (ceiling > 0 AND ceiling <= 1),
  -- 429s since the last cut, and reserved_total at that cut: the share SES took since.
  ADD COLUMN refusals bigint NOT NULL DEFAULT 0,
  ADD COLUMN reserved_at_cut bigint NOT NULL DEFAULT 0;

DROP FUNCTION IF EXISTS send_rate_throttled(double precision);

CREATE OR REPLACE FUNCTION send_rate_pace(slowdown double precision, ceiling double precision, slowed_at timestamptz, at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE
RETURN least(1, CASE
  WHEN extract(epoch FROM at - slowed_at) < 5
    THEN slowdown + (greatest(slowdown, 0.95 * ceiling) - slowdown) * extract(epoch FROM at - slowed_at) / 5
  ELSE greatest(slowdown, 0.95 * ceiling) + 0.01 * ceiling * (extract(epoch FROM at - slowed_at) - 5)
                                         + 0.001 * ceiling * (extract(epoch FROM at - slowed_at) - 5) ^ 2
END);

-- Same as in 0005, with the pace of this migration.
CREATE OR REPLACE FUNCTION reserve_send_slots(wanted integer, max_rate double precision, horizon_ms double precision, returned integer)
RETURNS TABLE (granted integer, first_at_ms double precision, wait_ms double precision, spacing_ms double precision,
               quota_reached boolean)
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
  rate := max_rate * send_rate_pace(r.slowdown, r.ceiling, r.slowed_at, now_at);
  start_at := greatest(r.next_slot_at, now_at);
  ahead_ms := extract(epoch FROM start_at - now_at)::double precision * 1000;
  IF ahead_ms > horizon_ms THEN
    n := 0;
    RETURN QUERY SELECT 0, 0::double precision, ahead_ms - horizon_ms, 0::double precision, false;
  ELSE
    IF r.quota_left IS NOT NULL THEN
      n := least(n, greatest(0, floor(r.quota_left))::integer);
    END IF;
    IF n <= 0 THEN
      n := 0;
      RETURN QUERY SELECT 0, 0::double precision, 0::double precision, 0::double precision, true;
    ELSE
      RETURN QUERY SELECT n, (extract(epoch FROM start_at) * 1000)::double precision, 0::double precision, 1000 / rate, false;
    END IF;
  END IF;
  IF n > 0 OR returned <> 0 THEN
    UPDATE send_rate
       SET next_slot_at = CASE WHEN n > 0 THEN start_at + make_interval(secs => n / rate) ELSE next_slot_at END,
           quota_left = r.quota_left - n,
           reserved_total = r.reserved_total + n
     WHERE id;
  END IF;
END $$;

DROP FUNCTION send_rate_pace(double precision, timestamptz, timestamptz);

-- SES refused for the rate a call made at `called_at_ms` (epoch milliseconds, the worker's clock as
-- reserve_send_slots compares them): the cut above, at most once a second; a refusal inside that
-- second is counted. A call made before the last cut says nothing of the pace since (it left at the
-- old one, in flight when the cut came): it neither cuts nor counts, or the calls in flight at a cut
-- (up to SEND_CONCURRENCY per worker) would make SES seem to take far less than it does. Slots already
-- reserved further ahead than the new pace allows are not taken back (a tenth of a second's worth).
-- Answers the pace now in force.
CREATE FUNCTION send_rate_throttled(called_at_ms double precision DEFAULT NULL) RETURNS double precision LANGUAGE plpgsql AS $$
DECLARE
  r send_rate;
  now_at timestamptz := clock_timestamp();
  pace double precision;
  calls bigint;
  taken double precision;
BEGIN
  SELECT * INTO STRICT r FROM send_rate WHERE id FOR UPDATE;
  pace := send_rate_pace(r.slowdown, r.ceiling, r.slowed_at, now_at);
  IF called_at_ms IS NOT NULL AND to_timestamp(called_at_ms / 1000) < r.slowed_at THEN
    RETURN pace;
  END IF;
  IF r.slowed_at >= now_at - interval '1 second' THEN
    UPDATE send_rate SET refusals = refusals + 1 WHERE id;
    RETURN pace;
  END IF;
  IF r.slowed_at >= now_at - interval '2 seconds' THEN
    calls := r.reserved_total - r.reserved_at_cut;
    -- Fewer than 10 calls since the cut are no measure (a test mail, a last few jobs): half, then.
    taken := CASE WHEN calls >= 10 THEN least(1, greatest(0.05, 1 - (r.refusals + 1)::double precision / calls)) ELSE 0.5 END;
    UPDATE send_rate
       SET ceiling = greatest(0.01, pace * taken), slowdown = greatest(0.01, 0.9 * pace * taken)
     WHERE id;
  ELSE
    UPDATE send_rate SET ceiling = greatest(0.01, pace), slowdown = greatest(0.01, 0.85 * pace) WHERE id;
  END IF;
  UPDATE send_rate SET slowed_at = now_at, refusals = 0, reserved_at_cut = reserved_total WHERE id
  RETURNING slowdown INTO pace;
  RETURN pace;
END $$;

-- 2. The daily quota pauses a campaign instead of stopping it (services/sending/consumer.ts): while
--    quota_paused_until is set, a SENDING campaign's jobs are not claimed, and the sending sweep
--    publishes them again once that time has come. Cancel stops it as an error does.
ALTER TABLE campaigns ADD COLUMN quota_paused_until timestamptz;
