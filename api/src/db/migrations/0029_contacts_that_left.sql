-- The contacts that left their audience in the preference centre (migration 0028), found without reading the
-- audience: the send confirmation and 'Send to all NOT_SENT contacts' count them among those a send skips. Few
-- contacts ever leave, so the partial index stays small.
CREATE INDEX contacts_left_audience ON contacts (audience_id) WHERE unsubscribed_at IS NOT NULL;
