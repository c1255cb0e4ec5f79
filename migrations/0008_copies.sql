-- The copies of the volunteers' lines that carry an "I'm going" button, as Telegram holds them
-- (its message id in each chat), so that the first volunteer to claim a line has it edited in
-- every chat ("-> Ana is going"). A message may join several lines: ``copy_texts`` holds its
-- lines as they read now (``parts``, JSON) and its buttons, once for every chat that got the
-- same message; ``copy_lines`` says which chat holds it, under which message id, and which of
-- its parts is the line that may be claimed. Pruned with the outbox's rows done long ago.
CREATE TABLE copy_texts (
    id      INTEGER PRIMARY KEY,
    parts   TEXT    NOT NULL,
    markup  TEXT,
    sent_at INTEGER NOT NULL
);
CREATE TABLE copy_lines (
    claim      TEXT    NOT NULL,  -- the line's claim (its button's callback data)
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    part       INTEGER NOT NULL,  -- which of the message's parts the line is
    text_id    INTEGER NOT NULL REFERENCES copy_texts(id),  -- the message as it reads now
    sent_at    INTEGER NOT NULL
);
CREATE INDEX copy_lines_claim ON copy_lines(claim);
