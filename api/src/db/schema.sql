-- Mailroom's schema as the migrations in api/src/db/migrations leave it, for reading: never applied.
-- Made by `pnpm --filter @mailroom/api schema`; api/src/db/schema.test.ts fails when it is out of date.
--
-- PostgreSQL database dump
--

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

--
-- Name: activity_list_members(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.activity_list_members() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO activity_members (email) SELECT DISTINCT member_email FROM added ORDER BY 1 ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

--
-- Name: activity_refuse_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.activity_refuse_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF current_setting('mailroom.erasure', true) = 'on'
     AND (NEW.id, NEW.created_at, NEW.kind, NEW.object_type) = (OLD.id, OLD.created_at, OLD.kind, OLD.object_type)
     AND NEW.object_id IS NOT DISTINCT FROM OLD.object_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the activity log is append-only';
END $$;

--
-- Name: address_key(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.address_key(address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN (octet_length(address) = char_length(address)) THEN (lower((address COLLATE "C")) COLLATE "default") ELSE (lower((address COLLATE "und-x-icu")) COLLATE "default") END;

--
-- Name: audiences_check_no_contacts(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audiences_check_no_contacts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM contacts WHERE audience_id = OLD.id) THEN
    RAISE EXCEPTION 'audience % still has contacts', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN OLD;
END $$;

--
-- Name: campaign_domain_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_domain_counts (
    campaign_id bigint NOT NULL,
    domain text NOT NULL,
    sent bigint NOT NULL,
    delivered bigint NOT NULL,
    bounced_hard bigint NOT NULL,
    bounced_soft bigint NOT NULL,
    complaints bigint NOT NULL,
    opened_human bigint NOT NULL,
    clicked_human bigint NOT NULL
);

--
-- Name: campaign_domain_counts_add(public.campaign_domain_counts[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_domain_counts_add(delta public.campaign_domain_counts[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_domain_counts AS k (campaign_id, domain, sent, delivered, bounced_hard, bounced_soft, complaints,
                                           opened_human, clicked_human)
  SELECT d.campaign_id, d.domain, d.sent, d.delivered, d.bounced_hard, d.bounced_soft, d.complaints, d.opened_human,
         d.clicked_human FROM unnest(delta) d
   ORDER BY d.campaign_id, d.domain
  ON CONFLICT (campaign_id, domain) DO UPDATE
     SET sent = k.sent + excluded.sent, delivered = k.delivered + excluded.delivered,
         bounced_hard = k.bounced_hard + excluded.bounced_hard, bounced_soft = k.bounced_soft + excluded.bounced_soft,
         complaints = k.complaints + excluded.complaints, opened_human = k.opened_human + excluded.opened_human,
         clicked_human = k.clicked_human + excluded.clicked_human;
END $$;

--
-- Name: campaign_hourly_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_hourly_counts (
    campaign_id bigint NOT NULL,
    hour timestamp with time zone NOT NULL,
    sent bigint NOT NULL,
    opens_human bigint NOT NULL,
    opens_machine bigint NOT NULL,
    clicks_human bigint NOT NULL,
    clicks_machine bigint NOT NULL
);

--
-- Name: campaign_hourly_counts_add(public.campaign_hourly_counts[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_hourly_counts_add(delta public.campaign_hourly_counts[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_hourly_counts AS k (campaign_id, hour, sent, opens_human, opens_machine, clicks_human, clicks_machine)
  SELECT d.campaign_id, d.hour, d.sent, d.opens_human, d.opens_machine, d.clicks_human, d.clicks_machine FROM unnest(delta) d
   ORDER BY d.campaign_id, d.hour
  ON CONFLICT (campaign_id, hour) DO UPDATE
     SET sent = k.sent + excluded.sent, opens_human = k.opens_human + excluded.opens_human,
         opens_machine = k.opens_machine + excluded.opens_machine, clicks_human = k.clicks_human + excluded.clicks_human,
         clicks_machine = k.clicks_machine + excluded.clicks_machine;
END $$;

--
-- Name: campaign_job_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_job_counts (
    campaign_id bigint NOT NULL,
    status text NOT NULL,
    bounce_type text NOT NULL,
    opened boolean NOT NULL,
    clicked boolean NOT NULL,
    human_opened boolean NOT NULL,
    human_clicked boolean NOT NULL,
    jobs bigint NOT NULL
);

--
-- Name: campaign_job_counts_add(public.campaign_job_counts[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_job_counts_add(delta public.campaign_job_counts[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT d.campaign_id FROM unnest(delta) d) ORDER BY id FOR NO KEY UPDATE;
  INSERT INTO campaign_job_counts AS k (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)
  SELECT d.campaign_id, d.status, d.bounce_type, d.opened, d.clicked, d.human_opened, d.human_clicked, d.jobs FROM unnest(delta) d
   ORDER BY d.campaign_id, d.status, d.bounce_type, d.opened, d.clicked, d.human_opened, d.human_clicked
  ON CONFLICT (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked)
  DO UPDATE SET jobs = k.jobs + excluded.jobs;
END $$;

--
-- Name: campaign_jobs_check_campaigns(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_jobs_check_campaigns() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  missing bigint;
BEGIN
  PERFORM 1 FROM campaigns WHERE id IN (SELECT DISTINCT campaign_id FROM new_jobs) FOR KEY SHARE;
  SELECT n.campaign_id INTO missing
    FROM (SELECT DISTINCT campaign_id FROM new_jobs) n
   WHERE NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = n.campaign_id)
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'insert or update on table "campaign_jobs" violates its reference to campaigns'
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (campaign_id)=(%s) is not present in table "campaigns".', missing);
  END IF;
  RETURN NULL;
END $$;

--
-- Name: campaign_jobs_check_moved_campaign(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_jobs_check_moved_campaign() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM 1 FROM campaigns WHERE id = NEW.campaign_id FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "campaign_jobs" violates its reference to campaigns'
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (campaign_id)=(%s) is not present in table "campaigns".', NEW.campaign_id);
  END IF;
  RETURN NULL;
END $$;

--
-- Name: campaign_jobs_counted_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_jobs_counted_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  delta campaign_job_counts[];
BEGIN
  SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)::campaign_job_counts) INTO delta
    FROM (SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
                 clicked_at IS NOT NULL AS clicked, human_opened_at IS NOT NULL AS human_opened,
                 human_clicked_at IS NOT NULL AS human_clicked, count(*) AS jobs
            FROM new_jobs GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
  PERFORM campaign_job_counts_add(delta);
  RETURN NULL;
END $$;

--
-- Name: campaign_jobs_counted_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_jobs_counted_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  delta campaign_job_counts[];
BEGIN
  SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs)::campaign_job_counts) INTO delta
    FROM (SELECT campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, sum(n) AS jobs
            FROM (SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
                         clicked_at IS NOT NULL AS clicked, human_opened_at IS NOT NULL AS human_opened,
                         human_clicked_at IS NOT NULL AS human_clicked, 1 AS n FROM new_jobs
                  UNION ALL
                  SELECT campaign_id, status, coalesce(bounce_type, 'NONE'), opened_at IS NOT NULL, clicked_at IS NOT NULL,
                         human_opened_at IS NOT NULL, human_clicked_at IS NOT NULL, -1
                    FROM old_jobs) moves
           GROUP BY 1, 2, 3, 4, 5, 6, 7
          HAVING sum(n) <> 0) g;
  PERFORM campaign_job_counts_add(delta);
  RETURN NULL;
END $$;

--
-- Name: campaign_jobs_outcome_counted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaign_jobs_outcome_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
DECLARE
  hourly campaign_hourly_counts[];
  domains campaign_domain_counts[];
BEGIN
  EXECUTE format($q$
    WITH moves AS (%s)
    SELECT (SELECT array_agg(row(campaign_id, hour, sent, 0, 0, 0, 0)::campaign_hourly_counts)
              FROM (SELECT campaign_id, date_trunc('hour', sent_at, 'UTC') AS hour, sum(n) AS sent
                      FROM moves WHERE sent_at IS NOT NULL GROUP BY 1, 2 HAVING sum(n) <> 0) h),
           (SELECT array_agg(row(campaign_id, domain, sent, delivered, bounced_hard, bounced_soft, complaints, opened_human,
                                 clicked_human)::campaign_domain_counts)
              FROM (SELECT campaign_id, recipient_domain(email) AS domain,
                           coalesce(sum(n) FILTER (WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')), 0) AS sent,
                           coalesce(sum(n) FILTER (WHERE status = 'SENT_SUCCESS'), 0) AS delivered,
                           coalesce(sum(n) FILTER (WHERE bounce_type = 'HARD'), 0) AS bounced_hard,
                           coalesce(sum(n) FILTER (WHERE bounce_type = 'SOFT'), 0) AS bounced_soft,
                           coalesce(sum(n) FILTER (WHERE complained), 0) AS complaints,
                           coalesce(sum(n) FILTER (WHERE human_opened), 0) AS opened_human,
                           coalesce(sum(n) FILTER (WHERE human_clicked), 0) AS clicked_human
                      FROM moves
                     WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS') OR bounce_type IS NOT NULL OR complained
                        OR human_opened OR human_clicked
                     GROUP BY 1, 2) d
             WHERE (sent, delivered, bounced_hard, bounced_soft, complaints, opened_human, clicked_human) <> (0, 0, 0, 0, 0, 0, 0))
    $q$, transition_moves(
      'campaign_id, email, status, sent_at, bounce_type, complaint_type IS NOT NULL AS complained,
       human_opened_at IS NOT NULL AS human_opened, human_clicked_at IS NOT NULL AS human_clicked',
      TG_OP, 'new_jobs', 'old_jobs'))
    INTO hourly, domains;
  PERFORM campaign_hourly_counts_add(hourly);
  PERFORM campaign_domain_counts_add(domains);
  RETURN NULL;
END $_$;

--
-- Name: campaigns_delete_jobs(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.campaigns_delete_jobs() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM campaign_jobs WHERE campaign_id = OLD.id;
  RETURN NULL;
END $$;

--
-- Name: consent_ledger_refuse_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.consent_ledger_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: contacts_check_audience(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.contacts_check_audience() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM (SELECT DISTINCT audience_id FROM new_contacts) n
             WHERE NOT EXISTS (SELECT 1 FROM audiences a WHERE a.id = n.audience_id)) THEN
    RAISE EXCEPTION 'a contact must belong to an existing audience' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;

--
-- Name: csv_inert(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.csv_inert(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN ("left"(value, 1) = ANY (ARRAY['='::text, '+'::text, '-'::text, '@'::text, '	'::text, ''::text])) THEN (''''::text || value) ELSE value END;

--
-- Name: erased_job_email(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.erased_job_email(address text, job_email text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((('erased:'::text || encode(sha256((replace(public.address_key(address), '\'::text, '\\'::text))::bytea), 'hex'::text)) || '@'::text) || split_part(job_email, '@'::text, '-1'::integer));

--
-- Name: erased_key(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.erased_key(address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (('erased:'::text || encode(sha256((replace(public.address_key(address), '\'::text, '\\'::text))::bytea), 'hex'::text)) || CASE WHEN (strpos(address, '@'::text) > 0) THEN ('@'::text || split_part(public.address_key(address), '@'::text, '-1'::integer)) ELSE ''::text END);

--
-- Name: follow_up_recipients_of_deleted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.follow_up_recipients_of_deleted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  DELETE FROM follow_up_recipients WHERE campaign_id = OLD.id;
  RETURN NULL;
END $$;

--
-- Name: held_domains(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.held_domains() RETURNS SETOF text
    LANGUAGE sql STABLE
    AS $$
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

--
-- Name: recipient_domain(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.recipient_domain(email text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN "left"(lower(split_part(email, '@'::text, '-1'::integer)), 255);

--
-- Name: record_tracking_hits(bigint[], bigint[], text[], timestamp with time zone[], inet[], text[], integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.record_tracking_hits(hit_jobs bigint[], hit_links bigint[], hit_agents text[], hit_times timestamp with time zone[], hit_ips inet[], hit_reasons text[], too_soon_ms integer, burst_ms integer) RETURNS integer
    LANGUAGE sql
    AS $$
  SELECT record_tracking_hits(hit_jobs, hit_links, hit_agents, hit_times, hit_ips, hit_reasons, too_soon_ms, burst_ms, 3);
$$;

--
-- Name: record_tracking_hits(bigint[], bigint[], text[], timestamp with time zone[], inet[], text[], integer, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.record_tracking_hits(hit_jobs bigint[], hit_links bigint[], hit_agents text[], hit_times timestamp with time zone[], hit_ips inet[], hit_reasons text[], too_soon_ms integer, burst_ms integer, scanner_burst_links integer) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
  recorded integer;
  burst interval := make_interval(secs => burst_ms / 1000.0);
  marked bigint[];
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM 1 FROM campaign_jobs WHERE id = ANY (hit_jobs) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM campaign_links WHERE id = ANY (hit_links) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM campaigns WHERE id IN (SELECT campaign_id FROM campaign_jobs WHERE id = ANY (hit_jobs)) ORDER BY id FOR UPDATE;
  -- A new statement, so a new snapshot: it sees what the calls that held these locks before committed.
  WITH hit AS (
    SELECT h.job, h.link, h.agent, h.at, h.ip, j.campaign_id, j.opened_at IS NULL AS unopened, j.clicked_at IS NULL AS unclicked,
           coalesce(l.hidden, false) AS hidden, (extract(epoch FROM h.at - j.sent_at) * 1000)::bigint AS since_sent_ms,
           CASE WHEN l.hidden THEN 'hidden-link'
                ELSE coalesce(h.reason, CASE WHEN h.link IS NOT NULL AND h.at - j.sent_at < make_interval(secs => too_soon_ms / 1000.0)
                                             THEN 'too-soon' END) END AS reason
      FROM unnest(hit_jobs, hit_links, hit_agents, hit_times, hit_ips, hit_reasons) AS h(job, link, agent, at, ip, reason)
      JOIN campaign_jobs j ON j.id = h.job
      LEFT JOIN campaign_links l ON l.id = h.link
     WHERE h.link IS NULL OR l.campaign_id = j.campaign_id),
  events AS (
    INSERT INTO tracking_events (campaign_id, job_id, kind, link_id, user_agent, created_at, client_ip, since_sent_ms, machine, machine_reason)
    SELECT campaign_id, job, CASE WHEN link IS NULL THEN 'OPEN' ELSE 'CLICK' END, link, left(agent, 500), at, ip, since_sent_ms,
           reason IS NOT NULL, reason
      FROM hit
    RETURNING 1),
  -- The spec's figures as before, without the hidden link.
  counted AS (SELECT * FROM hit WHERE NOT hidden),
  per_job AS (
    SELECT job, campaign_id, min(at) AS first_at, min(at) FILTER (WHERE link IS NOT NULL) AS first_click_at,
           min(at) FILTER (WHERE reason IS NULL) AS human_at, min(at) FILTER (WHERE link IS NOT NULL AND reason IS NULL) AS human_click_at,
           bool_or(unopened) AS new_open, bool_or(unclicked AND link IS NOT NULL) AS new_click
      FROM counted GROUP BY job, campaign_id),
  jobs AS (
    -- least() passes over NULLs: a person's first hit stays the first.
    UPDATE campaign_jobs j SET opened_at = coalesce(j.opened_at, p.first_at), clicked_at = coalesce(j.clicked_at, p.first_click_at),
                               human_opened_at = least(j.human_opened_at, p.human_at),
                               human_clicked_at = least(j.human_clicked_at, p.human_click_at)
      FROM per_job p
     WHERE j.id = p.job
       AND (p.new_open OR p.new_click OR p.human_at < coalesce(j.human_opened_at, 'infinity')
            OR p.human_click_at < coalesce(j.human_clicked_at, 'infinity'))
    RETURNING 1),
  pair AS (SELECT DISTINCT job, link FROM counted WHERE link IS NOT NULL),
  new_pair AS (
    SELECT link, count(*) AS n FROM pair
     WHERE NOT EXISTS (SELECT 1 FROM tracking_events e WHERE e.job_id = pair.job AND e.kind = 'CLICK' AND e.link_id = pair.link)
     GROUP BY link),
  link_clicks AS (SELECT link, count(*) AS n FROM counted WHERE link IS NOT NULL GROUP BY link),
  links AS (
    UPDATE campaign_links l SET clicks = l.clicks + c.n, unique_clicks = l.unique_clicks + coalesce(np.n, 0)
      FROM link_clicks c LEFT JOIN new_pair np ON np.link = c.link
     WHERE l.id = c.link
    RETURNING 1),
  per_campaign AS (
    SELECT campaign_id, count(*) FILTER (WHERE new_open) AS opens, count(*) FILTER (WHERE new_click) AS clicks
      FROM per_job GROUP BY campaign_id),
  campaign_counts AS (
    UPDATE campaigns c SET unique_opens = c.unique_opens + pc.opens, unique_clicks = c.unique_clicks + pc.clicks
      FROM per_campaign pc WHERE c.id = pc.campaign_id AND (pc.opens > 0 OR pc.clicks > 0)
    RETURNING 1)
  -- The other data-modifying parts run to completion whether read or not.
  SELECT count(*) INTO recorded FROM events;

  -- Bursts, in the hits of this call's jobs around this call's hits (the job and time index).
  WITH batch AS (
    SELECT h.job, min(h.at) AS first_at, max(h.at) AS last_at FROM unnest(hit_jobs, hit_times) AS h(job, at) GROUP BY h.job),
  recent AS (
    SELECT e.id, e.job_id, e.campaign_id, e.link_id, e.created_at, e.machine, coalesce(l.hidden, false) AS hidden,
           e.created_at BETWEEN b.first_at AND b.last_at AS in_call
      FROM batch b
      JOIN tracking_events e ON e.job_id = b.job AND e.created_at BETWEEN b.first_at - 2 * burst AND b.last_at + 2 * burst
      LEFT JOIN campaign_links l ON l.id = e.link_id),
  link_count AS (
    SELECT l.campaign_id, count(*) AS n FROM campaign_links l
     WHERE l.campaign_id IN (SELECT campaign_id FROM recent WHERE in_call AND link_id IS NOT NULL AND NOT hidden) AND NOT l.hidden
     GROUP BY l.campaign_id),
  found AS (
    SELECT r.job_id, r.created_at - burst AS from_at, r.created_at + burst AS to_at, 'hidden-link' AS reason
      FROM recent r WHERE r.hidden
    UNION ALL
    -- Every link of the mail (scanner_burst_links or more) followed within burst_ms of one of this call's clicks.
    SELECT c.job_id, c.created_at - 2 * burst, c.created_at + 2 * burst, 'scanner-burst'
      FROM recent c JOIN link_count n ON n.campaign_id = c.campaign_id AND n.n >= scanner_burst_links
     WHERE c.in_call AND c.link_id IS NOT NULL AND NOT c.hidden
       AND (SELECT count(DISTINCT o.link_id) FROM tracking_events o JOIN campaign_links ol ON ol.id = o.link_id AND NOT ol.hidden
             WHERE o.job_id = c.job_id AND o.created_at BETWEEN c.created_at - burst AND c.created_at + burst) = n.n),
  turned AS (
    SELECT DISTINCT ON (r.id) r.id, f.reason
      FROM recent r JOIN found f ON f.job_id = r.job_id AND r.created_at BETWEEN f.from_at AND f.to_at
     WHERE NOT r.machine
     ORDER BY r.id, f.reason),
  marked_events AS (
    UPDATE tracking_events e SET machine = true, machine_reason = t.reason FROM turned t WHERE e.id = t.id
    RETURNING e.job_id)
  SELECT array_agg(DISTINCT job_id) INTO marked FROM marked_events;

  IF marked IS NOT NULL THEN
    -- A hidden-link hit is always a machine's: the hits left to people are the spec's opens and clicks.
    UPDATE campaign_jobs j SET human_opened_at = p.opened_at, human_clicked_at = p.clicked_at
      FROM (SELECT m.job,
                   (SELECT min(e.created_at) FROM tracking_events e WHERE e.job_id = m.job AND NOT e.machine) AS opened_at,
                   (SELECT min(e.created_at) FROM tracking_events e WHERE e.job_id = m.job AND e.kind = 'CLICK' AND NOT e.machine) AS clicked_at
              FROM unnest(marked) AS m(job)) p
     WHERE j.id = p.job
       AND (j.human_opened_at IS DISTINCT FROM p.opened_at OR j.human_clicked_at IS DISTINCT FROM p.clicked_at);
  END IF;
  RETURN recorded;
END $$;

--
-- Name: release_domain_jobs(text[], double precision[], double precision, double precision, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.release_domain_jobs(domains text[], rates double precision[], lead_ms double precision, ahead_ms double precision, most integer) RETURNS TABLE(campaign_id bigint, job_id bigint, slot_ms double precision)
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: reserve_send_slots(integer, double precision, double precision, integer, date, bigint, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.reserve_send_slots(wanted integer, max_rate double precision, horizon_ms double precision, returned integer, day date DEFAULT NULL::date, day_volume bigint DEFAULT NULL::bigint, day_returned integer DEFAULT 0) RETURNS TABLE(granted integer, first_at_ms double precision, wait_ms double precision, spacing_ms double precision, quota_reached boolean, warm_up_reached boolean)
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: send_rate_pace(double precision, double precision, timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.send_rate_pace(slowdown double precision, ceiling double precision, slowed_at timestamp with time zone, at timestamp with time zone) RETURNS double precision
    LANGUAGE sql IMMUTABLE
    RETURN LEAST((1)::double precision, CASE WHEN (EXTRACT(epoch FROM (at - slowed_at)) < (5)::numeric) THEN (slowdown + (((GREATEST(slowdown, ((0.95)::double precision * ceiling)) - slowdown) * (EXTRACT(epoch FROM (at - slowed_at)))::double precision) / (5)::double precision)) ELSE ((GREATEST(slowdown, ((0.95)::double precision * ceiling)) + (((0.01)::double precision * ceiling) * ((EXTRACT(epoch FROM (at - slowed_at)) - (5)::numeric))::double precision)) + (((0.001)::double precision * ceiling) * (((EXTRACT(epoch FROM (at - slowed_at)) - (5)::numeric) ^ (2)::numeric))::double precision)) END);

--
-- Name: send_rate_throttled(double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.send_rate_throttled(called_at_ms double precision DEFAULT NULL::double precision) RETURNS double precision
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: soft_bounce_counted(text, text, integer, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.soft_bounce_counted(address text, message_id text, max_bounces integer, from_campaign bigint) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: suppressions_counted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.suppressions_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE suppression_counts SET suppressions = 0;
  ELSIF TG_OP = 'INSERT' THEN
    FOR d IN SELECT reason, count(*) AS n FROM new_rows GROUP BY reason ORDER BY reason LOOP
      UPDATE suppression_counts SET suppressions = suppressions + d.n WHERE reason = d.reason;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN SELECT reason, count(*) AS n FROM old_rows GROUP BY reason ORDER BY reason LOOP
      UPDATE suppression_counts SET suppressions = suppressions - d.n WHERE reason = d.reason;
    END LOOP;
  ELSE
    FOR d IN SELECT reason, sum(n) AS n FROM (
               SELECT reason, count(*) AS n FROM new_rows GROUP BY reason
               UNION ALL SELECT reason, -count(*) FROM old_rows GROUP BY reason) moved
             GROUP BY reason HAVING sum(n) <> 0 ORDER BY reason LOOP
      UPDATE suppression_counts SET suppressions = suppressions + d.n WHERE reason = d.reason;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

--
-- Name: tracking_events_counted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.tracking_events_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
DECLARE
  hourly campaign_hourly_counts[];
BEGIN
  EXECUTE format($q$
    WITH moves AS (%s)
    SELECT array_agg(row(campaign_id, hour, 0, opens_human, opens_machine, clicks_human, clicks_machine)::campaign_hourly_counts)
      FROM (SELECT campaign_id, date_trunc('hour', created_at, 'UTC') AS hour,
                   coalesce(sum(n) FILTER (WHERE kind = 'OPEN' AND NOT machine), 0) AS opens_human,
                   coalesce(sum(n) FILTER (WHERE kind = 'OPEN' AND machine), 0) AS opens_machine,
                   coalesce(sum(n) FILTER (WHERE kind = 'CLICK' AND NOT machine), 0) AS clicks_human,
                   coalesce(sum(n) FILTER (WHERE kind = 'CLICK' AND machine), 0) AS clicks_machine
              FROM moves m
             WHERE m.link_id IS NULL OR NOT EXISTS (SELECT 1 FROM campaign_links l WHERE l.id = m.link_id AND l.hidden)
             GROUP BY 1, 2) h
     WHERE (opens_human, opens_machine, clicks_human, clicks_machine) <> (0, 0, 0, 0)
    $q$, transition_moves('campaign_id, created_at, kind, machine, link_id', TG_OP, 'new_events', 'old_events'))
    INTO hourly;
  PERFORM campaign_hourly_counts_add(hourly);
  RETURN NULL;
END $_$;

--
-- Name: tracking_events_link_counted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.tracking_events_link_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
DECLARE
  campaign_ids bigint[];
  job_ids bigint[];
  link_ids bigint[];
  moves bigint[];
BEGIN
  EXECUTE format($q$
    SELECT array_agg(campaign_id), array_agg(job_id), array_agg(link_id), array_agg(n)
      FROM (SELECT campaign_id, job_id, link_id, sum(n) AS n FROM (%s) m
             WHERE kind = 'CLICK' AND link_id IS NOT NULL AND NOT machine
             GROUP BY 1, 2, 3 HAVING sum(n) <> 0) p
    $q$, transition_moves('campaign_id, job_id, link_id, kind, machine', TG_OP, 'new_events', 'old_events'))
    INTO campaign_ids, job_ids, link_ids, moves;
  IF campaign_ids IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM campaigns WHERE id = ANY (campaign_ids) ORDER BY id FOR NO KEY UPDATE;
  -- A new statement, so a new snapshot: it sees the hits of whoever held the campaign rows before.
  INSERT INTO campaign_link_counts AS k (link_id, campaign_id, human_clicks, human_unique_clicks)
  SELECT link_id, campaign_id, sum(n), sum((after > 0)::int - (after - n > 0)::int)
    FROM (SELECT m.campaign_id, m.link_id, m.n,
                 (SELECT count(*) FROM tracking_events e
                   WHERE e.job_id = m.job_id AND e.kind = 'CLICK' AND e.link_id = m.link_id AND NOT e.machine) AS after
            FROM unnest(campaign_ids, job_ids, link_ids, moves) AS m(campaign_id, job_id, link_id, n)) p
   GROUP BY link_id, campaign_id
   ORDER BY link_id
  ON CONFLICT (link_id) DO UPDATE
     SET human_clicks = k.human_clicks + excluded.human_clicks,
         human_unique_clicks = k.human_unique_clicks + excluded.human_unique_clicks;
  RETURN NULL;
END $_$;

--
-- Name: transition_moves(text, text, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.transition_moves(columns text, op text, new_table text, old_table text) RETURNS text
    LANGUAGE sql IMMUTABLE
    RETURN CASE op WHEN 'INSERT'::text THEN format('SELECT %s, 1 AS n FROM %I'::text, columns, new_table) ELSE format('SELECT %1$s, 1 AS n FROM %2$I UNION ALL SELECT %1$s, -1 FROM %3$I'::text, columns, new_table, old_table) END;

--
-- Name: webhook_emit(text, jsonb, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.webhook_emit(text, jsonb, text) RETURNS void
    LANGUAGE sql
    AS $_$
  INSERT INTO webhook_deliveries (endpoint_id, event_type, payload, address_key)
  SELECT e.id, $1, jsonb_build_object('type', $1, 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', $2), $3
    FROM webhook_endpoints e
   WHERE e.enabled AND $1 = ANY (e.events)
$_$;

--
-- Name: webhook_from_campaign(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.webhook_from_campaign() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM webhook_emit('campaign.sent',
    jsonb_build_object('campaignId', NEW.id, 'name', NEW.name, 'audienceId', NEW.audience_id, 'recipients', NEW.contact_count,
                       'sent', NEW.jobs_sent, 'failed', NEW.jobs_failed),
    NULL);
  RETURN NULL;
END $$;

--
-- Name: webhook_from_consent(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.webhook_from_consent() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: webhook_from_job(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.webhook_from_job() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: activity; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.activity (
    id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    member_email text NOT NULL,
    kind text NOT NULL,
    object_type text NOT NULL,
    object_id bigint,
    object_name text,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT activity_details_check CHECK ((octet_length((details)::text) <= 2000))
);

--
-- Name: activity_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.activity_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: activity_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.activity_id_seq OWNED BY public.activity.id;

--
-- Name: activity_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.activity_members (
    email text NOT NULL
);

--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id bigint NOT NULL,
    name text NOT NULL,
    key_hash bytea NOT NULL,
    key_prefix text NOT NULL,
    scopes text[] NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone,
    last_used_at timestamp with time zone,
    CONSTRAINT api_keys_key_hash_check CHECK ((length(key_hash) = 32)),
    CONSTRAINT api_keys_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100))),
    CONSTRAINT api_keys_scopes_check CHECK ((cardinality(scopes) > 0))
);

--
-- Name: api_keys_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.api_keys ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.api_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: approval_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.approval_requests (
    id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    requested_by_email text NOT NULL,
    requested_at timestamp with time zone DEFAULT now() NOT NULL,
    send_at timestamp with time zone,
    state text DEFAULT 'WAITING'::text NOT NULL,
    answered_by_email text,
    answered_at timestamp with time zone,
    reason text,
    mail_state text,
    mail_queued_at timestamp with time zone,
    CONSTRAINT approval_requests_check CHECK (((state = 'WAITING'::text) = (answered_at IS NULL))),
    CONSTRAINT approval_requests_mail_state_check CHECK ((mail_state = ANY (ARRAY['queued'::text, 'sending'::text, 'sent'::text, 'unknown'::text, 'rejected'::text]))),
    CONSTRAINT approval_requests_state_check CHECK ((state = ANY (ARRAY['WAITING'::text, 'APPROVED'::text, 'DECLINED'::text, 'WITHDRAWN'::text])))
);

--
-- Name: approval_requests_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.approval_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: approval_requests_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.approval_requests_id_seq OWNED BY public.approval_requests.id;

--
-- Name: audience_field_removals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audience_field_removals (
    audience_id bigint NOT NULL,
    key text NOT NULL,
    after_id bigint DEFAULT 0 NOT NULL,
    removed_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: audience_fields; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audience_fields (
    audience_id bigint NOT NULL,
    key text NOT NULL,
    label text NOT NULL,
    type text NOT NULL,
    options jsonb,
    required boolean DEFAULT false NOT NULL,
    editable_by_person boolean DEFAULT false NOT NULL,
    "position" integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT audience_fields_check CHECK (((type = 'CHOICE'::text) = (options IS NOT NULL))),
    CONSTRAINT audience_fields_type_check CHECK ((type = ANY (ARRAY['TEXT'::text, 'NUMBER'::text, 'DATE'::text, 'YES_NO'::text, 'CHOICE'::text])))
);

--
-- Name: audiences; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audiences (
    id bigint NOT NULL,
    name text NOT NULL,
    headers jsonb DEFAULT '[]'::jsonb NOT NULL,
    source text,
    number_of_contacts integer DEFAULT 0 NOT NULL,
    number_of_contacts_with_errors integer DEFAULT 0 NOT NULL,
    is_importing boolean DEFAULT false NOT NULL,
    import_error_message text,
    deleted_at timestamp with time zone,
    created_by_email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    import_started_at timestamp with time zone,
    import_mapping jsonb,
    public_name text,
    CONSTRAINT audiences_source_check CHECK ((source = ANY (ARRAY['CSV'::text, 'TEXT'::text, 'BIG_QUERY'::text, 'FILTERS'::text])))
);

--
-- Name: audiences_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.audiences_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: audiences_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.audiences_id_seq OWNED BY public.audiences.id;

--
-- Name: campaign_ab_tests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_ab_tests (
    campaign_id bigint NOT NULL,
    test_share integer NOT NULL,
    wait_hours integer NOT NULL,
    measure text NOT NULL,
    default_variant integer NOT NULL,
    seed integer NOT NULL,
    started_at timestamp with time zone,
    ends_at timestamp with time zone,
    winner integer,
    decided_at timestamp with time zone,
    decided_by text,
    verdict jsonb,
    CONSTRAINT campaign_ab_tests_check CHECK (((winner IS NULL) = (decided_at IS NULL))),
    CONSTRAINT campaign_ab_tests_decided_by_check CHECK ((decided_by = ANY (ARRAY['AUTOMATIC'::text, 'MEMBER'::text]))),
    CONSTRAINT campaign_ab_tests_default_variant_check CHECK (((default_variant >= 0) AND (default_variant <= 3))),
    CONSTRAINT campaign_ab_tests_measure_check CHECK ((measure = ANY (ARRAY['PEOPLE_OPENS'::text, 'PEOPLE_CLICKS'::text]))),
    CONSTRAINT campaign_ab_tests_test_share_check CHECK (((test_share >= 10) AND (test_share <= 50))),
    CONSTRAINT campaign_ab_tests_wait_hours_check CHECK (((wait_hours >= 1) AND (wait_hours <= 72))),
    CONSTRAINT campaign_ab_tests_winner_check CHECK (((winner >= 0) AND (winner <= 3)))
);

--
-- Name: campaign_domain_throttles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_domain_throttles (
    campaign_id bigint NOT NULL,
    domain text NOT NULL,
    limit_waits bigint DEFAULT 0 NOT NULL,
    deferrals bigint DEFAULT 0 NOT NULL,
    ses_throttles bigint DEFAULT 0 NOT NULL
);

--
-- Name: campaign_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_jobs (
    id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    email text NOT NULL,
    status text DEFAULT 'QUEUED'::text NOT NULL,
    ses_message_id text,
    attempts integer DEFAULT 0 NOT NULL,
    error_message text,
    bounce_type text,
    bounce_message text,
    bounce_time timestamp with time zone,
    complaint_type text,
    complaint_time timestamp with time zone,
    opened_at timestamp with time zone,
    clicked_at timestamp with time zone,
    claimed_at timestamp with time zone,
    sent_at timestamp with time zone,
    not_before timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    claim_token uuid,
    human_opened_at timestamp with time zone,
    human_clicked_at timestamp with time zone,
    domain_slot_at timestamp with time zone,
    variant integer,
    domain_held text,
    CONSTRAINT campaign_jobs_bounce_type_check CHECK ((bounce_type = ANY (ARRAY['HARD'::text, 'SOFT'::text]))),
    CONSTRAINT campaign_jobs_status_check CHECK ((status = ANY (ARRAY['QUEUED'::text, 'SENDING'::text, 'SENT_WAIT_ACK'::text, 'SENT_SUCCESS'::text, 'FAILED'::text, 'UNKNOWN'::text]))),
    CONSTRAINT campaign_jobs_variant_check CHECK (((variant >= 0) AND (variant <= 3)))
);

--
-- Name: campaign_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.campaign_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: campaign_jobs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.campaign_jobs_id_seq OWNED BY public.campaign_jobs.id;

--
-- Name: campaign_link_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_link_counts (
    link_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    human_clicks integer NOT NULL,
    human_unique_clicks integer NOT NULL
);

--
-- Name: campaign_links; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_links (
    id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    href text NOT NULL,
    "position" integer NOT NULL,
    clicks integer DEFAULT 0 NOT NULL,
    unique_clicks integer DEFAULT 0 NOT NULL,
    hidden boolean DEFAULT false NOT NULL
);

--
-- Name: campaign_links_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.campaign_links_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: campaign_links_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.campaign_links_id_seq OWNED BY public.campaign_links.id;

--
-- Name: campaign_variants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaign_variants (
    campaign_id bigint NOT NULL,
    "position" integer NOT NULL,
    subject text,
    preview_text text,
    from_name text,
    template_id bigint,
    html text,
    plain_text text,
    CONSTRAINT campaign_variants_from_name_check CHECK ((from_name !~ '[\r\n]'::text)),
    CONSTRAINT campaign_variants_position_check CHECK ((("position" >= 0) AND ("position" <= 3))),
    CONSTRAINT campaign_variants_preview_text_check CHECK ((preview_text !~ '[\r\n]'::text)),
    CONSTRAINT campaign_variants_subject_check CHECK ((subject !~ '[\r\n]'::text))
);

--
-- Name: campaigns; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.campaigns (
    id bigint NOT NULL,
    name text NOT NULL,
    status text DEFAULT 'DRAFT'::text NOT NULL,
    audience_id bigint,
    template_id bigint,
    from_name text,
    from_email text,
    subject text,
    preview_text text,
    html text,
    plain_text text,
    error_message text,
    delivery_date timestamp with time zone,
    contact_count integer DEFAULT 0 NOT NULL,
    jobs_sent integer DEFAULT 0 NOT NULL,
    jobs_failed integer DEFAULT 0 NOT NULL,
    unique_opens integer DEFAULT 0 NOT NULL,
    unique_clicks integer DEFAULT 0 NOT NULL,
    updated_by_email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    progress_at timestamp with time zone,
    scheduled_at timestamp with time zone,
    follow_up_of bigint,
    follow_up_name text,
    follow_up_recipients text,
    follow_up_count integer,
    segment_id bigint,
    segment_name text,
    segment_rule jsonb,
    quota_paused_until timestamp with time zone,
    paused_for text,
    CONSTRAINT campaigns_follow_up_recipients_check CHECK ((follow_up_recipients = ANY (ARRAY['NOT_OPENED'::text, 'NOT_CLICKED'::text]))),
    CONSTRAINT campaigns_paused_for_check CHECK ((paused_for = ANY (ARRAY['DAILY_QUOTA'::text, 'WARM_UP'::text]))),
    CONSTRAINT campaigns_status_check CHECK ((status = ANY (ARRAY['DRAFT'::text, 'SCHEDULED'::text, 'AWAITING_APPROVAL'::text, 'SENDING'::text, 'SENT'::text, 'ERROR'::text])))
);

--
-- Name: campaigns_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.campaigns_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: campaigns_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.campaigns_id_seq OWNED BY public.campaigns.id;

--
-- Name: consent_ledger; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.consent_ledger (
    id bigint NOT NULL,
    audience_id bigint,
    address_key text,
    email text,
    event text NOT NULL,
    form_id bigint,
    form_name text,
    consent_version integer,
    wording text,
    client_address text,
    user_agent text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    member_email text,
    lawful_basis text,
    contacts integer,
    detail jsonb,
    CONSTRAINT consent_ledger_event_check CHECK ((event = ANY (ARRAY['SUBSCRIBED'::text, 'CONFIRMED'::text, 'IMPORTED'::text, 'ADDED'::text, 'PREFERENCES'::text, 'UNSUBSCRIBED'::text, 'RESUBSCRIBED'::text, 'SUPPRESSED'::text, 'ERASED'::text]))),
    CONSTRAINT consent_ledger_names_person CHECK ((((event = 'IMPORTED'::text) AND (address_key IS NULL) AND (email IS NULL) AND (audience_id IS NOT NULL)) OR ((event <> 'IMPORTED'::text) AND (address_key IS NOT NULL) AND (email IS NOT NULL))))
);

--
-- Name: consent_ledger_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.consent_ledger_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: consent_ledger_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.consent_ledger_id_seq OWNED BY public.consent_ledger.id;

--
-- Name: contacts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.contacts (
    id bigint NOT NULL,
    audience_id bigint NOT NULL,
    email text NOT NULL,
    error_message text,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    seq integer,
    valid_seq integer,
    error_seq integer,
    unsubscribed_at timestamp with time zone
);

--
-- Name: contacts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.contacts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: contacts_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.contacts_id_seq OWNED BY public.contacts.id;

--
-- Name: domain_send_rate; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.domain_send_rate (
    domain text NOT NULL,
    next_slot_at timestamp with time zone NOT NULL
);

--
-- Name: follow_up_recipients; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.follow_up_recipients (
    campaign_id bigint NOT NULL,
    seq integer NOT NULL,
    contact_id bigint NOT NULL
);

--
-- Name: pending_signups; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pending_signups (
    id bigint NOT NULL,
    form_id bigint NOT NULL,
    audience_id bigint NOT NULL,
    email text NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    consent_version integer NOT NULL,
    client_address text,
    user_agent text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: pending_signups_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.pending_signups_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: pending_signups_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.pending_signups_id_seq OWNED BY public.pending_signups.id;

--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: segments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.segments (
    id bigint NOT NULL,
    audience_id bigint NOT NULL,
    name text NOT NULL,
    rule jsonb NOT NULL,
    created_by_email text,
    updated_by_email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: segments_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.segments_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: segments_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.segments_id_seq OWNED BY public.segments.id;

--
-- Name: send_minute_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.send_minute_counts (
    minute timestamp with time zone NOT NULL,
    sent bigint NOT NULL
);

--
-- Name: send_rate; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.send_rate (
    id boolean DEFAULT true NOT NULL,
    next_slot_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    slowdown double precision DEFAULT 1 NOT NULL,
    slowed_at timestamp with time zone DEFAULT '2000-01-01 00:00:00+00'::timestamp with time zone NOT NULL,
    quota_left double precision,
    reserved_total bigint DEFAULT 0 NOT NULL,
    quota_read_at timestamp with time zone,
    ceiling double precision DEFAULT 1 NOT NULL,
    refusals bigint DEFAULT 0 NOT NULL,
    reserved_at_cut bigint DEFAULT 0 NOT NULL,
    warm_up_date date,
    warm_up_sent bigint DEFAULT 0 NOT NULL,
    CONSTRAINT send_rate_ceiling_check CHECK (((ceiling > (0)::double precision) AND (ceiling <= (1)::double precision))),
    CONSTRAINT send_rate_id_check CHECK (id),
    CONSTRAINT send_rate_slowdown_check CHECK (((slowdown > (0)::double precision) AND (slowdown <= (1)::double precision)))
);

--
-- Name: signup_form_wordings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signup_form_wordings (
    form_id bigint NOT NULL,
    version integer NOT NULL,
    wording text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT signup_form_wordings_version_check CHECK ((version >= 1))
);

--
-- Name: signup_forms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signup_forms (
    id bigint NOT NULL,
    audience_id bigint NOT NULL,
    slug text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    fields jsonb DEFAULT '[]'::jsonb NOT NULL,
    confirmation_required boolean DEFAULT true NOT NULL,
    success_message text NOT NULL,
    success_url text,
    allowed_origins jsonb DEFAULT '[]'::jsonb NOT NULL,
    mail_subject text NOT NULL,
    mail_text text NOT NULL,
    from_name text NOT NULL,
    from_email text NOT NULL,
    consent_version integer DEFAULT 1 NOT NULL,
    created_by_email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: signup_forms_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.signup_forms_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: signup_forms_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.signup_forms_id_seq OWNED BY public.signup_forms.id;

--
-- Name: signup_mails; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signup_mails (
    id bigint NOT NULL,
    audience_id bigint NOT NULL,
    address_key text NOT NULL,
    pending_id bigint,
    outcome text DEFAULT 'queued'::text NOT NULL,
    message_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: signup_mails_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.signup_mails_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: signup_mails_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.signup_mails_id_seq OWNED BY public.signup_mails.id;

--
-- Name: signup_used_challenges; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signup_used_challenges (
    signature text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: sns_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sns_messages (
    message_id text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: soft_bounce_streaks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.soft_bounce_streaks (
    email_lower text NOT NULL,
    bounces integer NOT NULL,
    last_message_id text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: suppression_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.suppression_counts (
    reason text NOT NULL,
    suppressions bigint NOT NULL
);

--
-- Name: suppression_removals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.suppression_removals (
    id bigint NOT NULL,
    email_lower text NOT NULL,
    reason text NOT NULL,
    campaign_id bigint,
    suppressed_at timestamp with time zone NOT NULL,
    removed_by_email text NOT NULL,
    removed_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: suppression_removals_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.suppression_removals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: suppression_removals_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.suppression_removals_id_seq OWNED BY public.suppression_removals.id;

--
-- Name: suppressions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.suppressions (
    email_lower text NOT NULL,
    reason text NOT NULL,
    campaign_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    added_by_email text,
    id bigint NOT NULL,
    reason_before_erasure text,
    CONSTRAINT suppressions_reason_before_erasure_check CHECK ((reason_before_erasure = ANY (ARRAY['UNSUBSCRIBE'::text, 'HARD_BOUNCE'::text, 'COMPLAINT'::text, 'SOFT_BOUNCE'::text, 'MEMBER'::text]))),
    CONSTRAINT suppressions_reason_check CHECK ((reason = ANY (ARRAY['UNSUBSCRIBE'::text, 'HARD_BOUNCE'::text, 'COMPLAINT'::text, 'SOFT_BOUNCE'::text, 'MEMBER'::text, 'ERASED'::text])))
);

--
-- Name: suppressions_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.suppressions ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.suppressions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: templates; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.templates (
    id bigint NOT NULL,
    name text NOT NULL,
    design jsonb,
    html text,
    plain_text text,
    preview text,
    updated_by_email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: templates_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.templates_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: templates_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.templates_id_seq OWNED BY public.templates.id;

--
-- Name: tracking_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tracking_events (
    id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    job_id bigint NOT NULL,
    kind text NOT NULL,
    link_id bigint,
    user_agent text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    client_ip inet,
    since_sent_ms bigint,
    machine boolean DEFAULT false NOT NULL,
    machine_reason text,
    CONSTRAINT tracking_events_kind_check CHECK ((kind = ANY (ARRAY['OPEN'::text, 'CLICK'::text])))
);

--
-- Name: tracking_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.tracking_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: tracking_events_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.tracking_events_id_seq OWNED BY public.tracking_events.id;

--
-- Name: webhook_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_attempts (
    id bigint NOT NULL,
    delivery_id bigint NOT NULL,
    attempt integer NOT NULL,
    started_at timestamp with time zone NOT NULL,
    duration_ms integer NOT NULL,
    status integer,
    error text
);

--
-- Name: webhook_attempts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.webhook_attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: webhook_attempts_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.webhook_attempts_id_seq OWNED BY public.webhook_attempts.id;

--
-- Name: webhook_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_deliveries (
    id bigint NOT NULL,
    message_id text DEFAULT ('msg_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)) NOT NULL,
    endpoint_id bigint NOT NULL,
    event_type text NOT NULL,
    payload jsonb NOT NULL,
    address_key text,
    status text DEFAULT 'PENDING'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    lease_until timestamp with time zone,
    claim_token text,
    give_up_at timestamp with time zone DEFAULT (now() + '24:00:00'::interval) NOT NULL,
    last_status integer,
    last_error text,
    delivered_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'DELIVERED'::text, 'FAILED'::text])))
);

--
-- Name: webhook_deliveries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.webhook_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: webhook_deliveries_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.webhook_deliveries_id_seq OWNED BY public.webhook_deliveries.id;

--
-- Name: webhook_endpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_endpoints (
    id bigint NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    secret text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    created_by_email text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: webhook_endpoints_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.webhook_endpoints_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: webhook_endpoints_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.webhook_endpoints_id_seq OWNED BY public.webhook_endpoints.id;

--
-- Name: activity id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.activity ALTER COLUMN id SET DEFAULT nextval('public.activity_id_seq'::regclass);

--
-- Name: approval_requests id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.approval_requests ALTER COLUMN id SET DEFAULT nextval('public.approval_requests_id_seq'::regclass);

--
-- Name: audiences id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audiences ALTER COLUMN id SET DEFAULT nextval('public.audiences_id_seq'::regclass);

--
-- Name: campaign_jobs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_jobs ALTER COLUMN id SET DEFAULT nextval('public.campaign_jobs_id_seq'::regclass);

--
-- Name: campaign_links id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_links ALTER COLUMN id SET DEFAULT nextval('public.campaign_links_id_seq'::regclass);

--
-- Name: campaigns id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaigns ALTER COLUMN id SET DEFAULT nextval('public.campaigns_id_seq'::regclass);

--
-- Name: consent_ledger id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.consent_ledger ALTER COLUMN id SET DEFAULT nextval('public.consent_ledger_id_seq'::regclass);

--
-- Name: contacts id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contacts ALTER COLUMN id SET DEFAULT nextval('public.contacts_id_seq'::regclass);

--
-- Name: pending_signups id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_signups ALTER COLUMN id SET DEFAULT nextval('public.pending_signups_id_seq'::regclass);

--
-- Name: segments id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.segments ALTER COLUMN id SET DEFAULT nextval('public.segments_id_seq'::regclass);

--
-- Name: signup_forms id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_forms ALTER COLUMN id SET DEFAULT nextval('public.signup_forms_id_seq'::regclass);

--
-- Name: signup_mails id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_mails ALTER COLUMN id SET DEFAULT nextval('public.signup_mails_id_seq'::regclass);

--
-- Name: suppression_removals id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.suppression_removals ALTER COLUMN id SET DEFAULT nextval('public.suppression_removals_id_seq'::regclass);

--
-- Name: templates id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.templates ALTER COLUMN id SET DEFAULT nextval('public.templates_id_seq'::regclass);

--
-- Name: tracking_events id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracking_events ALTER COLUMN id SET DEFAULT nextval('public.tracking_events_id_seq'::regclass);

--
-- Name: webhook_attempts id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts ALTER COLUMN id SET DEFAULT nextval('public.webhook_attempts_id_seq'::regclass);

--
-- Name: webhook_deliveries id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries ALTER COLUMN id SET DEFAULT nextval('public.webhook_deliveries_id_seq'::regclass);

--
-- Name: webhook_endpoints id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints ALTER COLUMN id SET DEFAULT nextval('public.webhook_endpoints_id_seq'::regclass);

--
-- Name: activity_members activity_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.activity_members
    ADD CONSTRAINT activity_members_pkey PRIMARY KEY (email);

--
-- Name: activity activity_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.activity
    ADD CONSTRAINT activity_pkey PRIMARY KEY (id);

--
-- Name: api_keys api_keys_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

--
-- Name: approval_requests approval_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.approval_requests
    ADD CONSTRAINT approval_requests_pkey PRIMARY KEY (id);

--
-- Name: audience_field_removals audience_field_removals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_field_removals
    ADD CONSTRAINT audience_field_removals_pkey PRIMARY KEY (audience_id, key);

--
-- Name: audience_fields audience_fields_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_fields
    ADD CONSTRAINT audience_fields_pkey PRIMARY KEY (audience_id, key);

--
-- Name: audiences audiences_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audiences
    ADD CONSTRAINT audiences_pkey PRIMARY KEY (id);

--
-- Name: campaign_ab_tests campaign_ab_tests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_ab_tests
    ADD CONSTRAINT campaign_ab_tests_pkey PRIMARY KEY (campaign_id);

--
-- Name: campaign_domain_counts campaign_domain_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_domain_counts
    ADD CONSTRAINT campaign_domain_counts_pkey PRIMARY KEY (campaign_id, domain);

--
-- Name: campaign_domain_throttles campaign_domain_throttles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_domain_throttles
    ADD CONSTRAINT campaign_domain_throttles_pkey PRIMARY KEY (campaign_id, domain);

--
-- Name: campaign_hourly_counts campaign_hourly_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_hourly_counts
    ADD CONSTRAINT campaign_hourly_counts_pkey PRIMARY KEY (campaign_id, hour);

--
-- Name: campaign_job_counts campaign_job_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_job_counts
    ADD CONSTRAINT campaign_job_counts_pkey PRIMARY KEY (campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked);

--
-- Name: campaign_jobs campaign_jobs_campaign_id_contact_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_jobs
    ADD CONSTRAINT campaign_jobs_campaign_id_contact_id_key UNIQUE (campaign_id, contact_id);

--
-- Name: campaign_jobs campaign_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_jobs
    ADD CONSTRAINT campaign_jobs_pkey PRIMARY KEY (id);

--
-- Name: campaign_link_counts campaign_link_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_link_counts
    ADD CONSTRAINT campaign_link_counts_pkey PRIMARY KEY (link_id);

--
-- Name: campaign_links campaign_links_campaign_id_position_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_links
    ADD CONSTRAINT campaign_links_campaign_id_position_key UNIQUE (campaign_id, "position");

--
-- Name: campaign_links campaign_links_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_links
    ADD CONSTRAINT campaign_links_pkey PRIMARY KEY (id);

--
-- Name: campaign_variants campaign_variants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_variants
    ADD CONSTRAINT campaign_variants_pkey PRIMARY KEY (campaign_id, "position");

--
-- Name: campaigns campaigns_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_pkey PRIMARY KEY (id);

--
-- Name: consent_ledger consent_ledger_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.consent_ledger
    ADD CONSTRAINT consent_ledger_pkey PRIMARY KEY (id);

--
-- Name: contacts contacts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contacts
    ADD CONSTRAINT contacts_pkey PRIMARY KEY (id);

--
-- Name: domain_send_rate domain_send_rate_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.domain_send_rate
    ADD CONSTRAINT domain_send_rate_pkey PRIMARY KEY (domain);

--
-- Name: follow_up_recipients follow_up_recipients_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.follow_up_recipients
    ADD CONSTRAINT follow_up_recipients_pkey PRIMARY KEY (campaign_id, seq);

--
-- Name: pending_signups pending_signups_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_signups
    ADD CONSTRAINT pending_signups_pkey PRIMARY KEY (id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (name);

--
-- Name: segments segments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.segments
    ADD CONSTRAINT segments_pkey PRIMARY KEY (id);

--
-- Name: send_minute_counts send_minute_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.send_minute_counts
    ADD CONSTRAINT send_minute_counts_pkey PRIMARY KEY (minute);

--
-- Name: send_rate send_rate_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.send_rate
    ADD CONSTRAINT send_rate_pkey PRIMARY KEY (id);

--
-- Name: signup_form_wordings signup_form_wordings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_form_wordings
    ADD CONSTRAINT signup_form_wordings_pkey PRIMARY KEY (form_id, version);

--
-- Name: signup_forms signup_forms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_forms
    ADD CONSTRAINT signup_forms_pkey PRIMARY KEY (id);

--
-- Name: signup_forms signup_forms_slug_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_forms
    ADD CONSTRAINT signup_forms_slug_key UNIQUE (slug);

--
-- Name: signup_mails signup_mails_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_mails
    ADD CONSTRAINT signup_mails_pkey PRIMARY KEY (id);

--
-- Name: signup_used_challenges signup_used_challenges_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_used_challenges
    ADD CONSTRAINT signup_used_challenges_pkey PRIMARY KEY (signature);

--
-- Name: sns_messages sns_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sns_messages
    ADD CONSTRAINT sns_messages_pkey PRIMARY KEY (message_id);

--
-- Name: soft_bounce_streaks soft_bounce_streaks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.soft_bounce_streaks
    ADD CONSTRAINT soft_bounce_streaks_pkey PRIMARY KEY (email_lower);

--
-- Name: suppression_counts suppression_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.suppression_counts
    ADD CONSTRAINT suppression_counts_pkey PRIMARY KEY (reason);

--
-- Name: suppression_removals suppression_removals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.suppression_removals
    ADD CONSTRAINT suppression_removals_pkey PRIMARY KEY (id);

--
-- Name: suppressions suppressions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.suppressions
    ADD CONSTRAINT suppressions_pkey PRIMARY KEY (email_lower);

--
-- Name: templates templates_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.templates
    ADD CONSTRAINT templates_pkey PRIMARY KEY (id);

--
-- Name: tracking_events tracking_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracking_events
    ADD CONSTRAINT tracking_events_pkey PRIMARY KEY (id);

--
-- Name: webhook_attempts webhook_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts
    ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (id);

--
-- Name: webhook_deliveries webhook_deliveries_message_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_message_id_key UNIQUE (message_id);

--
-- Name: webhook_deliveries webhook_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);

--
-- Name: webhook_endpoints webhook_endpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);

--
-- Name: activity_by_kind; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX activity_by_kind ON public.activity USING btree (kind, created_at DESC, id DESC);

--
-- Name: activity_by_member; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX activity_by_member ON public.activity USING btree (member_email, created_at DESC, id DESC);

--
-- Name: activity_by_object; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX activity_by_object ON public.activity USING btree (object_type, object_id, created_at DESC, id DESC);

--
-- Name: activity_members_part; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX activity_members_part ON public.activity_members USING gin (email public.gin_trgm_ops);

--
-- Name: activity_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX activity_newest ON public.activity USING btree (created_at DESC, id DESC);

--
-- Name: api_keys_live_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX api_keys_live_name ON public.api_keys USING btree (lower(name)) WHERE (revoked_at IS NULL);

--
-- Name: approval_requests_by_campaign; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX approval_requests_by_campaign ON public.approval_requests USING btree (campaign_id, id DESC);

--
-- Name: approval_requests_mail_queued; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX approval_requests_mail_queued ON public.approval_requests USING btree (mail_queued_at) WHERE (mail_state = 'queued'::text);

--
-- Name: approval_requests_waiting; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX approval_requests_waiting ON public.approval_requests USING btree (campaign_id) WHERE (state = 'WAITING'::text);

--
-- Name: audience_field_removals_folded_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX audience_field_removals_folded_key ON public.audience_field_removals USING btree (audience_id, lower(key));

--
-- Name: audience_fields_folded_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX audience_fields_folded_key ON public.audience_fields USING btree (audience_id, lower(key));

--
-- Name: audiences_live_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audiences_live_created ON public.audiences USING btree (created_at DESC, id DESC) WHERE (deleted_at IS NULL);

--
-- Name: campaign_ab_tests_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_ab_tests_due ON public.campaign_ab_tests USING btree (ends_at) WHERE ((winner IS NULL) AND (ends_at IS NOT NULL));

--
-- Name: campaign_jobs_bounced; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_bounced ON public.campaign_jobs USING btree (campaign_id, bounce_type, id) WHERE (bounce_type IS NOT NULL);

--
-- Name: campaign_jobs_campaign; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_campaign ON public.campaign_jobs USING btree (campaign_id, id);

--
-- Name: campaign_jobs_campaign_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_campaign_status ON public.campaign_jobs USING btree (campaign_id, status, id);

--
-- Name: campaign_jobs_clicked; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_clicked ON public.campaign_jobs USING btree (campaign_id, id) WHERE (clicked_at IS NOT NULL);

--
-- Name: campaign_jobs_domain_held; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_domain_held ON public.campaign_jobs USING btree (domain_held, id) WHERE ((domain_held IS NOT NULL) AND (status = 'QUEUED'::text));

--
-- Name: campaign_jobs_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_email_key ON public.campaign_jobs USING btree (public.address_key(email));

--
-- Name: campaign_jobs_erased; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_erased ON public.campaign_jobs USING btree (campaign_id) WHERE starts_with(email, 'erased:'::text);

--
-- Name: campaign_jobs_human_clicked; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_human_clicked ON public.campaign_jobs USING btree (campaign_id, human_clicked_at, contact_id) WHERE (human_clicked_at IS NOT NULL);

--
-- Name: campaign_jobs_human_opened; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_human_opened ON public.campaign_jobs USING btree (campaign_id, human_opened_at, contact_id) WHERE (human_opened_at IS NOT NULL);

--
-- Name: campaign_jobs_opened; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_opened ON public.campaign_jobs USING btree (campaign_id, id) WHERE (opened_at IS NOT NULL);

--
-- Name: campaign_jobs_ses_message_id_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX campaign_jobs_ses_message_id_key ON public.campaign_jobs USING btree (ses_message_id) WHERE (ses_message_id IS NOT NULL);

--
-- Name: campaign_jobs_soft_bounced; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaign_jobs_soft_bounced ON public.campaign_jobs USING btree (contact_id) WHERE (bounce_type = 'SOFT'::text);

--
-- Name: campaigns_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaigns_due ON public.campaigns USING btree (scheduled_at) WHERE (status = 'SCHEDULED'::text);

--
-- Name: campaigns_segment; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaigns_segment ON public.campaigns USING btree (segment_id) WHERE (segment_id IS NOT NULL);

--
-- Name: campaigns_updated; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaigns_updated ON public.campaigns USING btree (updated_at DESC, id DESC);

--
-- Name: consent_ledger_by_address; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX consent_ledger_by_address ON public.consent_ledger USING btree (address_key, id) WHERE (address_key IS NOT NULL);

--
-- Name: consent_ledger_by_person; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX consent_ledger_by_person ON public.consent_ledger USING btree (audience_id, address_key, id);

--
-- Name: consent_ledger_imports; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX consent_ledger_imports ON public.consent_ledger USING btree (audience_id, id) WHERE (event = 'IMPORTED'::text);

--
-- Name: contacts_audience_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contacts_audience_email_key ON public.contacts USING btree (audience_id, public.address_key(email));

--
-- Name: contacts_audience_error_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX contacts_audience_error_seq ON public.contacts USING btree (audience_id, error_seq) WHERE (error_seq IS NOT NULL);

--
-- Name: contacts_audience_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contacts_audience_id ON public.contacts USING btree (audience_id, id);

--
-- Name: contacts_audience_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX contacts_audience_seq ON public.contacts USING btree (audience_id, seq);

--
-- Name: contacts_audience_valid_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX contacts_audience_valid_seq ON public.contacts USING btree (audience_id, valid_seq) WHERE (valid_seq IS NOT NULL);

--
-- Name: contacts_email_trgm; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contacts_email_trgm ON public.contacts USING gin (public.address_key(email) public.gin_trgm_ops);

--
-- Name: contacts_left_audience; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contacts_left_audience ON public.contacts USING btree (audience_id) WHERE (unsubscribed_at IS NOT NULL);

--
-- Name: pending_signups_by_audience; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pending_signups_by_audience ON public.pending_signups USING btree (audience_id, public.address_key(email));

--
-- Name: pending_signups_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pending_signups_expiry ON public.pending_signups USING btree (expires_at);

--
-- Name: segments_audience_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX segments_audience_name ON public.segments USING btree (audience_id, lower(name));

--
-- Name: signup_forms_by_audience; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX signup_forms_by_audience ON public.signup_forms USING btree (audience_id, id);

--
-- Name: signup_mails_by_address; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX signup_mails_by_address ON public.signup_mails USING btree (audience_id, address_key, created_at DESC);

--
-- Name: signup_used_challenges_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX signup_used_challenges_expiry ON public.signup_used_challenges USING btree (expires_at);

--
-- Name: suppressions_email_trgm; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX suppressions_email_trgm ON public.suppressions USING gin (email_lower public.gin_trgm_ops);

--
-- Name: suppressions_id; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX suppressions_id ON public.suppressions USING btree (id);

--
-- Name: suppressions_reason_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX suppressions_reason_id ON public.suppressions USING btree (reason, id);

--
-- Name: suppressions_unsubscribed_campaign; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX suppressions_unsubscribed_campaign ON public.suppressions USING btree (campaign_id) WHERE ((reason = 'UNSUBSCRIBE'::text) OR (reason_before_erasure = 'UNSUBSCRIBE'::text));

--
-- Name: templates_updated; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX templates_updated ON public.templates USING btree (updated_at DESC, id DESC);

--
-- Name: tracking_events_job; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracking_events_job ON public.tracking_events USING btree (job_id, kind);

--
-- Name: tracking_events_job_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracking_events_job_time ON public.tracking_events USING btree (job_id, created_at);

--
-- Name: tracking_events_link; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracking_events_link ON public.tracking_events USING btree (link_id) WHERE (link_id IS NOT NULL);

--
-- Name: webhook_attempts_delivery; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_attempts_delivery ON public.webhook_attempts USING btree (delivery_id, attempt);

--
-- Name: webhook_deliveries_endpoint; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_endpoint ON public.webhook_deliveries USING btree (endpoint_id, id DESC);

--
-- Name: webhook_deliveries_endpoint_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_endpoint_due ON public.webhook_deliveries USING btree (endpoint_id, next_attempt_at) WHERE (status = 'PENDING'::text);

--
-- Name: webhook_deliveries_endpoint_leased; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_endpoint_leased ON public.webhook_deliveries USING btree (endpoint_id, lease_until) WHERE ((status = 'PENDING'::text) AND (lease_until IS NOT NULL));

--
-- Name: webhook_deliveries_failed; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_failed ON public.webhook_deliveries USING btree (endpoint_id, id DESC) WHERE (status = 'FAILED'::text);

--
-- Name: webhook_deliveries_person; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_person ON public.webhook_deliveries USING btree (address_key) WHERE (address_key IS NOT NULL);

--
-- Name: activity activity_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER activity_append_only BEFORE UPDATE ON public.activity FOR EACH ROW EXECUTE FUNCTION public.activity_refuse_update();

--
-- Name: activity activity_members_listed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER activity_members_listed AFTER INSERT ON public.activity REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.activity_list_members();

--
-- Name: audiences audiences_delete_check_contacts; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audiences_delete_check_contacts BEFORE DELETE ON public.audiences FOR EACH ROW EXECUTE FUNCTION public.audiences_check_no_contacts();

--
-- Name: campaign_jobs campaign_jobs_campaign_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_campaign_insert AFTER INSERT ON public.campaign_jobs REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION public.campaign_jobs_check_campaigns();

--
-- Name: campaign_jobs campaign_jobs_campaign_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_campaign_update AFTER UPDATE OF campaign_id ON public.campaign_jobs FOR EACH ROW WHEN ((new.campaign_id IS DISTINCT FROM old.campaign_id)) EXECUTE FUNCTION public.campaign_jobs_check_moved_campaign();

--
-- Name: campaign_jobs campaign_jobs_count_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_count_insert AFTER INSERT ON public.campaign_jobs REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION public.campaign_jobs_counted_insert();

--
-- Name: campaign_jobs campaign_jobs_count_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_count_update AFTER UPDATE ON public.campaign_jobs REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION public.campaign_jobs_counted_update();

--
-- Name: campaign_jobs campaign_jobs_outcome_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_outcome_insert AFTER INSERT ON public.campaign_jobs REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION public.campaign_jobs_outcome_counted();

--
-- Name: campaign_jobs campaign_jobs_outcome_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_outcome_update AFTER UPDATE ON public.campaign_jobs REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION public.campaign_jobs_outcome_counted();

--
-- Name: campaign_jobs campaign_jobs_webhooks; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaign_jobs_webhooks AFTER UPDATE OF bounce_time, complaint_time ON public.campaign_jobs FOR EACH ROW WHEN (((new.bounce_time IS DISTINCT FROM old.bounce_time) OR (new.complaint_time IS DISTINCT FROM old.complaint_time))) EXECUTE FUNCTION public.webhook_from_job();

--
-- Name: campaigns campaigns_delete_jobs; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaigns_delete_jobs AFTER DELETE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION public.campaigns_delete_jobs();

--
-- Name: campaigns campaigns_follow_up_recipients_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaigns_follow_up_recipients_delete AFTER DELETE ON public.campaigns FOR EACH ROW WHEN ((old.follow_up_recipients IS NOT NULL)) EXECUTE FUNCTION public.follow_up_recipients_of_deleted();

--
-- Name: campaigns campaigns_webhooks; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaigns_webhooks AFTER UPDATE OF status ON public.campaigns FOR EACH ROW WHEN (((new.status = 'SENT'::text) AND (old.status IS DISTINCT FROM 'SENT'::text))) EXECUTE FUNCTION public.webhook_from_campaign();

--
-- Name: consent_ledger consent_ledger_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER consent_ledger_append_only BEFORE DELETE OR UPDATE ON public.consent_ledger FOR EACH ROW EXECUTE FUNCTION public.consent_ledger_refuse_change();

--
-- Name: consent_ledger consent_ledger_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER consent_ledger_no_truncate BEFORE TRUNCATE ON public.consent_ledger FOR EACH STATEMENT EXECUTE FUNCTION public.consent_ledger_refuse_change();

--
-- Name: consent_ledger consent_ledger_webhooks; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER consent_ledger_webhooks AFTER INSERT ON public.consent_ledger FOR EACH ROW EXECUTE FUNCTION public.webhook_from_consent();

--
-- Name: contacts contacts_insert_check_audience; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER contacts_insert_check_audience AFTER INSERT ON public.contacts REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION public.contacts_check_audience();

--
-- Name: contacts contacts_update_check_audience; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER contacts_update_check_audience AFTER UPDATE ON public.contacts REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION public.contacts_check_audience();

--
-- Name: suppressions suppressions_count_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER suppressions_count_delete AFTER DELETE ON public.suppressions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.suppressions_counted();

--
-- Name: suppressions suppressions_count_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER suppressions_count_insert AFTER INSERT ON public.suppressions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.suppressions_counted();

--
-- Name: suppressions suppressions_count_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER suppressions_count_truncate AFTER TRUNCATE ON public.suppressions FOR EACH STATEMENT EXECUTE FUNCTION public.suppressions_counted();

--
-- Name: suppressions suppressions_count_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER suppressions_count_update AFTER UPDATE ON public.suppressions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.suppressions_counted();

--
-- Name: tracking_events tracking_events_count_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tracking_events_count_insert AFTER INSERT ON public.tracking_events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION public.tracking_events_counted();

--
-- Name: tracking_events tracking_events_count_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tracking_events_count_update AFTER UPDATE ON public.tracking_events REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION public.tracking_events_counted();

--
-- Name: tracking_events tracking_events_link_count_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tracking_events_link_count_insert AFTER INSERT ON public.tracking_events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION public.tracking_events_link_counted();

--
-- Name: tracking_events tracking_events_link_count_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tracking_events_link_count_update AFTER UPDATE ON public.tracking_events REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION public.tracking_events_link_counted();

--
-- Name: approval_requests approval_requests_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.approval_requests
    ADD CONSTRAINT approval_requests_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: audience_field_removals audience_field_removals_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_field_removals
    ADD CONSTRAINT audience_field_removals_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE CASCADE;

--
-- Name: audience_fields audience_fields_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_fields
    ADD CONSTRAINT audience_fields_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE CASCADE;

--
-- Name: campaign_ab_tests campaign_ab_tests_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_ab_tests
    ADD CONSTRAINT campaign_ab_tests_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_domain_counts campaign_domain_counts_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_domain_counts
    ADD CONSTRAINT campaign_domain_counts_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_domain_throttles campaign_domain_throttles_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_domain_throttles
    ADD CONSTRAINT campaign_domain_throttles_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_hourly_counts campaign_hourly_counts_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_hourly_counts
    ADD CONSTRAINT campaign_hourly_counts_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_job_counts campaign_job_counts_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_job_counts
    ADD CONSTRAINT campaign_job_counts_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_link_counts campaign_link_counts_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_link_counts
    ADD CONSTRAINT campaign_link_counts_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_link_counts campaign_link_counts_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_link_counts
    ADD CONSTRAINT campaign_link_counts_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.campaign_links(id) ON DELETE CASCADE;

--
-- Name: campaign_links campaign_links_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_links
    ADD CONSTRAINT campaign_links_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: campaign_variants campaign_variants_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_variants
    ADD CONSTRAINT campaign_variants_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaign_ab_tests(campaign_id) ON DELETE CASCADE;

--
-- Name: campaign_variants campaign_variants_template_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaign_variants
    ADD CONSTRAINT campaign_variants_template_id_fkey FOREIGN KEY (template_id) REFERENCES public.templates(id) ON DELETE SET NULL;

--
-- Name: campaigns campaigns_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE SET NULL;

--
-- Name: campaigns campaigns_follow_up_of_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_follow_up_of_fkey FOREIGN KEY (follow_up_of) REFERENCES public.campaigns(id) ON DELETE SET NULL;

--
-- Name: campaigns campaigns_segment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_segment_id_fkey FOREIGN KEY (segment_id) REFERENCES public.segments(id) ON DELETE SET NULL;

--
-- Name: campaigns campaigns_template_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_template_id_fkey FOREIGN KEY (template_id) REFERENCES public.templates(id) ON DELETE SET NULL;

--
-- Name: pending_signups pending_signups_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_signups
    ADD CONSTRAINT pending_signups_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE CASCADE;

--
-- Name: pending_signups pending_signups_form_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_signups
    ADD CONSTRAINT pending_signups_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.signup_forms(id) ON DELETE CASCADE;

--
-- Name: segments segments_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.segments
    ADD CONSTRAINT segments_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE CASCADE;

--
-- Name: signup_form_wordings signup_form_wordings_form_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_form_wordings
    ADD CONSTRAINT signup_form_wordings_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.signup_forms(id) ON DELETE CASCADE;

--
-- Name: signup_forms signup_forms_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_forms
    ADD CONSTRAINT signup_forms_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE CASCADE;

--
-- Name: signup_mails signup_mails_audience_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signup_mails
    ADD CONSTRAINT signup_mails_audience_id_fkey FOREIGN KEY (audience_id) REFERENCES public.audiences(id) ON DELETE CASCADE;

--
-- Name: tracking_events tracking_events_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracking_events
    ADD CONSTRAINT tracking_events_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE;

--
-- Name: tracking_events tracking_events_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracking_events
    ADD CONSTRAINT tracking_events_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.campaign_jobs(id) ON DELETE CASCADE;

--
-- Name: tracking_events tracking_events_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracking_events
    ADD CONSTRAINT tracking_events_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.campaign_links(id) ON DELETE CASCADE;

--
-- Name: webhook_attempts webhook_attempts_delivery_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts
    ADD CONSTRAINT webhook_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.webhook_deliveries(id) ON DELETE CASCADE;

--
-- Name: webhook_deliveries webhook_deliveries_endpoint_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES public.webhook_endpoints(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
