-- The copies of claimable lines, one row per copy instead of one per claimable line of it.
-- A volunteer's line sent privately reaches every volunteer and organiser, and a message
-- joining twenty lines to twenty chats made 400 ``copy_lines`` rows: most of what recording the
-- copies cost a busy day. Now ``copy_texts`` also says which of its parts may be claimed
-- (``claims``: JSON ``[[claim, part], ...]``, the same for every chat that got that text), and
-- ``copies`` says which chat holds which text under which message id. A claim finds its
-- copies by the texts that name it (a tap on "I'm going" reads the texts of the last hours,
-- pruned with the outbox).
ALTER TABLE copy_texts ADD COLUMN claims TEXT NOT NULL DEFAULT '[]';
UPDATE copy_texts SET claims = coalesce((
    SELECT json_group_array(json_array(claim, part)) FROM (
        SELECT DISTINCT l.claim, l.part FROM copy_lines l WHERE l.text_id = copy_texts.id
        ORDER BY l.part, l.claim)), '[]');
CREATE TABLE copies (
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    text_id    INTEGER NOT NULL REFERENCES copy_texts(id),  -- the message as it reads now
    sent_at    INTEGER NOT NULL
);
CREATE UNIQUE INDEX copies_message ON copies(chat_id, message_id);
INSERT OR IGNORE INTO copies (chat_id, message_id, text_id, sent_at)
    SELECT chat_id, message_id, text_id, sent_at FROM copy_lines ORDER BY rowid;
DROP TABLE copy_lines;
