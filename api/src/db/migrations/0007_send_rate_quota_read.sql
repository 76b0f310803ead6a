-- When a worker last put SES's daily quota into send_rate.quota_left (services/sending/send-rate.ts).
-- Workers read SES's account on their own, and SES counts a mail only once it has been sent. A
-- worker reading SES just after another reserved slots would take those slots for sent and set the
-- quota back up. So the quota is written at most once a second, whoever reads SES.
ALTER TABLE send_rate ADD COLUMN quota_read_at timestamptz;
