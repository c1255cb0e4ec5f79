-- Whether something was done once (an alert sent, a round confirmed, a category's results made
-- final: ``has_ref``) without scanning the history. Only the few events with a ref are indexed.
CREATE INDEX events_kind_ref ON events(kind, ref) WHERE ref IS NOT NULL;
