-- What the bot owes people: every message it must send, written in the same transaction as
-- the event it reports, sent from here, and marked done once Telegram took it (or refused it
-- for good). Rows done more than a while ago are pruned.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    chat_id INTEGER NOT NULL,
    priority INTEGER NOT NULL,          -- 0 the answer to who asked, 1 partners and volunteers, 2 bulk
    grouping TEXT,                      -- lines that may go out joined in one message ("staff")
    method TEXT NOT NULL,               -- the Bot API method (sendMessage)
    params TEXT NOT NULL,               -- its parameters but chat_id, as JSON
    created_at INTEGER NOT NULL,        -- unix seconds
    done_at INTEGER,                    -- NULL while owed
    outcome TEXT                        -- sent, unconfirmed (timed out twice), refused: ...
);
CREATE INDEX outbox_owed ON outbox(id) WHERE done_at IS NULL;
CREATE INDEX outbox_done ON outbox(done_at) WHERE done_at IS NOT NULL;
