-- Lookups that must not scan the history: a redelivered update, and corrections.
CREATE INDEX events_update ON events(update_id) WHERE update_id IS NOT NULL;
CREATE INDEX events_supersedes ON events(supersedes) WHERE supersedes IS NOT NULL;
