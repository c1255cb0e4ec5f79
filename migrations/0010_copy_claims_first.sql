-- A claim finds its copies by the texts that name it (``instr(claims, ...)``), and settling a
-- line (issue 47) does so at every finish. With ``claims`` after ``parts`` (kilobytes: a
-- message joining twenty lines), reading a text's claims went through the overflow pages of
-- its lines first, for every copy of the day. The claims now come first in the row, the lines
-- last: only the copies that name the claim have their lines read. The copies are rebuilt with
-- the texts (a text can't be dropped while copies refer to it). ``caption``: the message is a
-- photo (a home claim's, to the reviewers) whose caption holds the line: edited as a caption.
CREATE TABLE copy_texts_new (
    id      INTEGER PRIMARY KEY,
    claims  TEXT    NOT NULL DEFAULT '[]',
    sent_at INTEGER NOT NULL,
    markup  TEXT,
    caption INTEGER NOT NULL DEFAULT 0,
    parts   TEXT    NOT NULL
);
INSERT INTO copy_texts_new (id, claims, sent_at, markup, parts)
    SELECT id, claims, sent_at, markup, parts FROM copy_texts ORDER BY id;
CREATE TABLE copies_new (
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    text_id    INTEGER NOT NULL REFERENCES copy_texts_new(id),  -- the message as it reads now
    sent_at    INTEGER NOT NULL
);
INSERT INTO copies_new (chat_id, message_id, text_id, sent_at)
    SELECT chat_id, message_id, text_id, sent_at FROM copies ORDER BY rowid;
DROP TABLE copies;
DROP TABLE copy_texts;
ALTER TABLE copy_texts_new RENAME TO copy_texts;
ALTER TABLE copies_new RENAME TO copies;
CREATE UNIQUE INDEX copies_message ON copies(chat_id, message_id);

-- A line settled (its finish recorded, the puzzle found not done, a review decided): what
-- every copy reads in its place, in each language (``notes``, JSON), and the buttons that go
-- (``gone``, JSON), written in the settling's own transaction: what the bot owes every copy.
-- The sender's marks apply it (``applied``: every copy known then edited, in one edit per
-- message however many of its lines were settled since), and edit alike a copy still on its
-- way then, once it is sent; after a crash, at the next start. Pruned with the copies.
CREATE TABLE settled_lines (
    claim   TEXT PRIMARY KEY,
    notes   TEXT NOT NULL,
    gone    TEXT NOT NULL,
    at      INTEGER NOT NULL,
    applied INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX settled_lines_pending ON settled_lines(applied) WHERE applied = 0;

-- Which texts hold which claim, for finding a line's copies by an index: a settling looks
-- them up at every finish, and reading every text's claims (``instr``) cost more than the
-- rest of the day's work. One row per claim of each text (a text is shared by every chat
-- that got the same message), never per copy; pruned with the texts.
CREATE TABLE text_claims (
    claim   TEXT    NOT NULL,
    text_id INTEGER NOT NULL
);
INSERT INTO text_claims (claim, text_id)
    SELECT json_extract(j.value, '$[0]'), t.id FROM copy_texts t, json_each(t.claims) j;
CREATE INDEX text_claims_claim ON text_claims(claim);
CREATE INDEX copies_text ON copies(text_id);
