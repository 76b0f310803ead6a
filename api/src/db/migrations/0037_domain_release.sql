-- Capped domains released at their own pace; the warm-up's missed slots back to their own day
-- (issue 28; docs/decisions/sending.md, "Domain limits" and "Warm-up").
--
-- 1. A queued job of a capped domain that has no slot of its domain's schedule waits in the database,
--    held for its domain (domain_held), instead of going round the broker until its slot comes. The
--    claim skips a held job until it is released; release_domain_jobs releases each domain's next
--    held jobs only as its schedule frees (slots no further ahead than `ahead_ms`), so the mails of a
--    capped domain in flight are bounded by its rate, never by its backlog. A released job carries its
--    slot (domain_slot_at); one whose release was lost (the worker died before claiming it) is put back
--    in line by the sweep once its slot is long past.
ALTER TABLE campaign_jobs ADD COLUMN domain_held text;

-- Only the jobs waiting for their domain: the release reads them in order, per domain.
CREATE INDEX campaign_jobs_domain_held ON campaign_jobs (domain_held, id) WHERE domain_held IS NOT NULL AND status = 'QUEUED';

-- The domains with held jobs (one index probe per domain, however long the backlog).
CREATE FUNCTION held_domains() RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE d (domain) AS (
    (SELECT j.domain_held FROM campaign_jobs j
      WHERE j.domain_held IS NOT NULL AND j.status = 'QUEUED' ORDER BY j.domain_held LIMIT 1)
    UNION ALL
    SELECT (SELECT j.domain_held FROM campaign_jobs j
             WHERE j.domain_held IS NOT NULL AND j.status = 'QUEUED' AND j.domain_held > d.domain
             ORDER BY j.domain_held LIMIT 1)
      FROM d WHERE d.domain IS NOT NULL)
  SELECT domain FROM d WHERE domain IS NOT NULL
$$;

-- Releases, for each of `domains` (at `rates[i]` mails a second), its next held jobs (oldest first) of
-- SENDING campaigns that are not paused, one slot each of the domain's schedule (the first at least
-- `lead_ms` ahead: time to claim and render it), as many as fit before now + `ahead_ms` and at most
-- `most` per domain. Rows locked in domain order, as reserve_domain_slots
-- does, so both share the schedule; a job another release is taking is skipped.
CREATE FUNCTION release_domain_jobs(domains text[], rates double precision[], lead_ms double precision, ahead_ms double precision,
                                    most integer)
RETURNS TABLE (campaign_id bigint, job_id bigint, slot_ms double precision)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  now_at timestamptz := clock_timestamp();
  start_at timestamptz;
  fits integer;
  released integer;
  i integer;
BEGIN
  INSERT INTO domain_send_rate AS s (domain, next_slot_at)
  SELECT d, '-infinity' FROM unnest(domains) d ORDER BY d
  ON CONFLICT ON CONSTRAINT domain_send_rate_pkey DO NOTHING;
  PERFORM 1 FROM domain_send_rate s WHERE s.domain = ANY (domains) ORDER BY s.domain FOR UPDATE;
  FOR i IN 1 .. coalesce(array_length(domains, 1), 0) LOOP
    SELECT greatest(s.next_slot_at, now_at + make_interval(secs => lead_ms / 1000)) INTO start_at
      FROM domain_send_rate s WHERE s.domain = domains[i];
    fits := least(most, floor((ahead_ms - extract(epoch FROM start_at - now_at) * 1000) * rates[i] / 1000))::integer;
    CONTINUE WHEN fits <= 0;
    RETURN QUERY
      WITH picked AS (
        SELECT j.id FROM campaign_jobs j
         WHERE j.domain_held = domains[i] AND j.status = 'QUEUED' AND j.domain_slot_at IS NULL
           AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = j.campaign_id AND c.status = 'SENDING' AND c.quota_paused_until IS NULL)
         ORDER BY j.id LIMIT fits
         FOR UPDATE OF j SKIP LOCKED),
      numbered AS (SELECT p.id, (row_number() OVER (ORDER BY p.id) - 1)::double precision AS place FROM picked p)
      UPDATE campaign_jobs j SET domain_slot_at = start_at + make_interval(secs => n.place / rates[i])
        FROM numbered n
       WHERE j.id = n.id
      RETURNING j.campaign_id, j.id, extract(epoch FROM j.domain_slot_at)::double precision * 1000;
    GET DIAGNOSTICS released = ROW_COUNT;
    IF released > 0 THEN
      UPDATE domain_send_rate s SET next_slot_at = start_at + make_interval(secs => released / rates[i]) WHERE s.domain = domains[i];
    END IF;
  END LOOP;
END $$;

-- The release hands out the schedule now; a claim no longer reserves slots of its own.
DROP FUNCTION reserve_domain_slots(text[], integer[], double precision[]);

-- 2. Warm-up: slots a worker reserved and missed go back to the day they were reserved in, and only to
--    it (`day_returned`: the missed slots of `day`; `returned` still counts every missed slot for the
--    daily quota). Before, every missed slot was taken off the count of whatever day the next
--    reservation fell in: the first day lost them, and the next day could send more than its volume.
DROP FUNCTION reserve_send_slots(integer, double precision, double precision, integer, date, bigint);

CREATE FUNCTION reserve_send_slots(wanted integer, max_rate double precision, horizon_ms double precision, returned integer,
                                   day date DEFAULT NULL, day_volume bigint DEFAULT NULL, day_returned integer DEFAULT 0)
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
    -- The day's own missed slots go back to its volume; a new day starts from none.
    r.warm_up_sent := CASE WHEN r.warm_up_date = day THEN greatest(0, r.warm_up_sent - day_returned) ELSE 0 END;
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
