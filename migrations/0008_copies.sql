-- The copies of the volunteers' lines that carry an "I'm going" button, as Telegram holds them
-- (its message id in each chat), so that the first volunteer to claim a line has it edited in
-- every chat ("-> Ana is going"). One row per message sent (a message may join several lines,
-- as ``text`` and ``markup`` show it now), and one per line in it that may be claimed.
CREATE TABLE copies (
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    markup     TEXT,
    sent_at    INTEGER NOT NULL,  -- pruned with the outbox's rows done long ago
    PRIMARY KEY (chat_id, message_id)
);
CREATE TABLE copy_lines (
    claim      TEXT    NOT NULL,  -- the line's claim (its button's callback data)
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    line       TEXT    NOT NULL,  -- the line as the message holds it, in its reader's language
    sent_at    INTEGER NOT NULL
);
CREATE INDEX copy_lines_claim ON copy_lines(claim);
