-- The copies of the volunteers' lines that carry an "I'm going" button, as Telegram holds them
-- (its message id in each chat), so that the first volunteer to claim a line has it edited in
-- every chat ("-> Ana is going"). A message may join several lines: ``copy_texts`` holds its
-- lines as they read now (``parts``, JSON) and its buttons, once for every chat that got the
-- same message; ``copies`` says which chat holds which message; ``copy_lines`` names the part of
-- each line that may be claimed. Pruned with the outbox's rows done long ago.
CREATE TABLE copy_texts (
    id      INTEGER PRIMARY KEY,
    parts   TEXT    NOT NULL,
    markup  TEXT,
    sent_at INTEGER NOT NULL
);
CREATE TABLE copies (
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    text_id    INTEGER NOT NULL REFERENCES copy_texts(id),
    sent_at    INTEGER NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
CREATE TABLE copy_lines (
    claim      TEXT    NOT NULL,  -- the line's claim (its button's callback data)
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    part       INTEGER NOT NULL,  -- which of the message's parts the line is
    sent_at    INTEGER NOT NULL
);
CREATE INDEX copy_lines_claim ON copy_lines(claim);
