-- Registration in the chat: who registered an entry and the meals booked with it; the state of
-- registration conversations (python-telegram-bot persistence), so a restart resumes them.

ALTER TABLE entries ADD COLUMN registered_by INTEGER;
ALTER TABLE entries ADD COLUMN meal_adults INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN meal_children INTEGER NOT NULL DEFAULT 0;

CREATE TABLE conversations (
    name  TEXT NOT NULL,
    key   TEXT NOT NULL,                    -- JSON list: chat id, user id
    state TEXT NOT NULL,                    -- JSON
    PRIMARY KEY (name, key)
);

CREATE TABLE user_data (
    user_id INTEGER PRIMARY KEY,
    data    TEXT NOT NULL                   -- JSON: the registration draft
);
