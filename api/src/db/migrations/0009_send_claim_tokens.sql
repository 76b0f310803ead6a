-- Which claim of a worker holds a job (services/sending). A worker that loses the database while it
-- claims, sends or records keeps what it knows in memory and writes it once the database is back: the
-- token lets it re-run a claim whose answer was lost, and record or give back exactly its own claim
-- (never a later one of another worker). claimed_at doubles as the claim's heartbeat.
ALTER TABLE campaign_jobs ADD COLUMN claim_token uuid;
