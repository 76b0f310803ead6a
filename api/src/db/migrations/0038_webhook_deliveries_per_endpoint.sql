-- Outgoing webhooks' poller takes each endpoint's due deliveries on its own, up to what that endpoint has in
-- flight at most (docs/decisions/webhooks.md, "Delivery"): an endpoint's backlog is published only as fast as it
-- is delivered, and one endpoint's backlog never stands in front of another's.
--
-- An endpoint's pending deliveries by due time: its next ones.
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'PENDING';
-- An endpoint's leased deliveries (published or being attempted): how many it has in flight. A lease is cleared
-- when the attempt is recorded, so this index holds little more than what is in flight.
CREATE INDEX webhook_deliveries_endpoint_leased ON webhook_deliveries (endpoint_id, lease_until)
  WHERE status = 'PENDING' AND lease_until IS NOT NULL;
-- The poller no longer reads the due deliveries of every endpoint together by due time.
DROP INDEX webhook_deliveries_due;
