-- When the bot was last known to be running (one row, written every few minutes and at a clean
-- stop): at the next start, a gap of more than Telegram's 24 hours of keeping updates tells the
-- organisers which messages may be lost (bot/features/upkeep).
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL                 -- unix seconds
);
