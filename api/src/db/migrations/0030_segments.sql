-- Segments (issue 26; docs/decisions/segments.md): a saved, named rule over one audience's contacts. The rule
-- is a typed tree (the contract's SegmentRule), checked against the audience's fields by the API and compiled
-- to one parameterised condition whenever it is counted or sent to: it is never SQL text.
CREATE TABLE segments (
  id               bigserial   PRIMARY KEY,
  audience_id      bigint      NOT NULL REFERENCES audiences (id) ON DELETE CASCADE,
  name             text        NOT NULL,
  rule             jsonb       NOT NULL,
  created_by_email text,
  updated_by_email text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
-- Names are told apart as the member reads them: two segments of an audience may not differ only in case.
CREATE UNIQUE INDEX segments_audience_name ON segments (audience_id, lower(name));

-- A campaign may target one segment of its audience (null: the whole audience). A deleted segment leaves the
-- campaign with its audience (the API refuses to delete one that a campaign not sent yet targets). At send the
-- segment's name and rule are copied beside it, so the report shows what was sent to whatever happens to the
-- segment later.
ALTER TABLE campaigns
  ADD COLUMN segment_id   bigint REFERENCES segments (id) ON DELETE SET NULL,
  ADD COLUMN segment_name text,
  ADD COLUMN segment_rule jsonb;
-- The campaigns that target a segment (delete's check); most target none.
CREATE INDEX campaigns_segment ON campaigns (segment_id) WHERE segment_id IS NOT NULL;

-- The engagement conditions read who opened and clicked as a person, by campaign, with when: an index-only
-- range per campaign. Partial: only the jobs a person opened (or clicked) are in them, a fraction of all jobs.
CREATE INDEX campaign_jobs_human_opened ON campaign_jobs (campaign_id, human_opened_at, contact_id) WHERE human_opened_at IS NOT NULL;
CREATE INDEX campaign_jobs_human_clicked ON campaign_jobs (campaign_id, human_clicked_at, contact_id) WHERE human_clicked_at IS NOT NULL;
-- Soft bounces by contact (softBounces atLeast K): only soft-bounced jobs are in it.
CREATE INDEX campaign_jobs_soft_bounced ON campaign_jobs (contact_id) WHERE bounce_type = 'SOFT';
