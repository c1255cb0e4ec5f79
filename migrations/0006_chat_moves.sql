-- Chats Telegram moved to a new id (a group upgraded to a supergroup answers every message
-- with migrate_to_chat_id): the sender sends to the new id from then on, also after a restart.
CREATE TABLE chat_moves (
    old_id INTEGER PRIMARY KEY,
    new_id INTEGER NOT NULL,
    moved_at INTEGER NOT NULL           -- unix seconds
);
