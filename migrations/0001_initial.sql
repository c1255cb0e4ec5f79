-- Entries (registered here or imported), their members, people's preferences, and the
-- append-only event history from which every contest state is derived.

CREATE TABLE entries (
    number        INTEGER PRIMARY KEY,
    category      TEXT    NOT NULL,
    join_code     TEXT    NOT NULL UNIQUE,
    local         INTEGER NOT NULL DEFAULT 0,
    registered_at INTEGER NOT NULL,          -- unix seconds
    source        TEXT    NOT NULL DEFAULT 'import'
);

CREATE TABLE members (
    entry     INTEGER NOT NULL REFERENCES entries(number),
    position  INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    born      TEXT,                          -- ISO date when known
    born_year INTEGER,
    answers   TEXT    NOT NULL DEFAULT '',   -- question ids answered yes, comma-separated
    PRIMARY KEY (entry, position)
);

CREATE TABLE people (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL DEFAULT '',
    language   TEXT,                         -- chosen with /idioma; NULL: Telegram's
    tg_language TEXT
);

CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,            -- Telegram message date, unix seconds
    recorded_at INTEGER NOT NULL,            -- when the bot stored it (audit only)
    actor       INTEGER,                     -- Telegram user id; NULL for the system
    role        TEXT    NOT NULL,            -- participant, volunteer, organiser, system
    kind        TEXT    NOT NULL,
    entry       INTEGER REFERENCES entries(number),
    category    TEXT,
    stage       INTEGER,
    value       INTEGER,                     -- seconds of contest time, pieces, ...
    ref         TEXT,                        -- invite or join code, notice key, ...
    data        TEXT,                        -- JSON details
    supersedes  INTEGER REFERENCES events(id),
    update_id   INTEGER                      -- Telegram update that caused it
);

CREATE INDEX events_entry ON events(entry, kind);
CREATE INDEX events_kind ON events(kind);
CREATE INDEX events_actor ON events(actor, id);
CREATE INDEX events_ref ON events(ref);
