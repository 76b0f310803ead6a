-- Send approval (issue 27; docs/decisions/send-approval.md): when SEND_APPROVAL or SEND_APPROVAL_ABOVE applies,
-- a member's Send or Schedule becomes a request, and the campaign waits, read-only, as AWAITING_APPROVAL until
-- another member approves it (it is then sent or scheduled as asked) or declines it (a DRAFT again).
ALTER TABLE campaigns DROP CONSTRAINT campaigns_status_check;
ALTER TABLE campaigns
  ADD CONSTRAINT campaigns_status_check CHECK (status IN ('DRAFT', 'SCHEDULED', 'AWAITING_APPROVAL', 'SENDING', 'SENT', 'ERROR'));

-- One row per request, kept once answered: who asked for what (send now, or schedule at send_at), who answered
-- and why it was declined. The answer's mail to the requester goes through the queue 'approval-mail' and its row
-- decides, as a sign-up's confirmation mail does: queued, sending (claimed), then sent, unknown or rejected.
CREATE TABLE approval_requests (
  id                 bigserial PRIMARY KEY,
  campaign_id        bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  requested_by_email text NOT NULL,
  requested_at       timestamptz NOT NULL DEFAULT now(),
  send_at            timestamptz,
  state              text NOT NULL DEFAULT 'WAITING' CHECK (state IN ('WAITING', 'APPROVED', 'DECLINED', 'WITHDRAWN')),
  answered_by_email  text,
  answered_at        timestamptz,
  reason             text,
  mail_state         text CHECK (mail_state IN ('queued', 'sending', 'sent', 'unknown', 'rejected')),
  mail_queued_at     timestamptz,
  CHECK ((state = 'WAITING') = (answered_at IS NULL))
);
-- At most one waiting request per campaign; the campaign's latest request is one index range.
CREATE UNIQUE INDEX approval_requests_waiting ON approval_requests (campaign_id) WHERE state = 'WAITING';
CREATE INDEX approval_requests_by_campaign ON approval_requests (campaign_id, id DESC);
-- The sweep that queues again the answers' mails whose message was lost.
CREATE INDEX approval_requests_mail_queued ON approval_requests (mail_queued_at) WHERE mail_state = 'queued';
