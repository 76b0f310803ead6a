-- Scheduled sending (an addition to the spec): a DRAFT may be SCHEDULED for a time; the workers'
-- sweep starts it then through the same dispatch as Send. scheduled_at is the planned time and stays
-- once sending started, beside delivery_date (when it really started), so the report can show both.
ALTER TABLE campaigns DROP CONSTRAINT campaigns_status_check;
ALTER TABLE campaigns
  ADD CONSTRAINT campaigns_status_check CHECK (status IN ('DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'ERROR')),
  ADD COLUMN scheduled_at timestamptz;

-- The sweep asks every second from every worker which scheduled campaigns are due: this partial
-- index holds only the scheduled ones, so the question costs one short index range.
CREATE INDEX campaigns_due ON campaigns (scheduled_at) WHERE status = 'SCHEDULED';
