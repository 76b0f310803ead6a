-- Suppressed contacts (services/suppressions/repository.ts): an audience's contacts whose address is
-- in suppressions, counted for the send confirmation and the report's "send to NOT_SENT". A contact
-- is found by (audience, lower(email)), one probe per suppressed address, so the count costs what the
-- suppressions cost, not what the audience's million contacts would. Measured on a million contacts
-- and 22,000 suppressions: 56 ms instead of 270 ms for the hash join over the audience; a million-row
-- insert into contacts took 15.8 s with the index and 17.4 s without (noise: the trigram index is the
-- heavy one).
CREATE INDEX contacts_audience_email_lower ON contacts (audience_id, lower(email));
