-- Mneme's schema. Times are Unix milliseconds (UTC).

-- One row per conversation. A chat is identified by its channel plus the platform's id,
-- so a Telegram chat 123 and a Discord channel 123 never collide.
CREATE TABLE chats (
    id                INTEGER PRIMARY KEY,
    channel           TEXT    NOT NULL,
    external_chat_id  TEXT    NOT NULL,
    title             TEXT,
    is_group          INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    UNIQUE (channel, external_chat_id)
);

-- A session is the stretch of conversation the model sees as history; /reset starts a new one.
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    chat_id     INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER
);
CREATE INDEX sessions_by_chat ON sessions (chat_id, id);

CREATE TABLE messages (
    id                   INTEGER PRIMARY KEY,
    chat_id              INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    session_id           INTEGER REFERENCES sessions (id) ON DELETE SET NULL,
    sender_id            TEXT    NOT NULL,
    sender_name          TEXT    NOT NULL,
    is_from_bot          INTEGER NOT NULL,
    text                 TEXT    NOT NULL,
    platform_message_id  TEXT,
    -- the platform's thread or topic the message was in (Telegram forum topics)
    platform_thread_id   TEXT,
    created_at           INTEGER NOT NULL,
    -- addressed to the bot and so owed an answer; replied_at is set once it was delivered,
    -- so answers interrupted by a crash are given on the next start
    needs_reply          INTEGER NOT NULL DEFAULT 0,
    replied_at           INTEGER
);
CREATE INDEX messages_by_chat ON messages (chat_id, id);
CREATE INDEX messages_awaiting_reply ON messages (chat_id, id) WHERE needs_reply = 1 AND replied_at IS NULL;
CREATE INDEX messages_by_session ON messages (session_id, id);
-- A platform delivering the same message twice stores it once.
CREATE UNIQUE INDEX messages_platform_once
    ON messages (chat_id, is_from_bot, platform_message_id)
    WHERE platform_message_id IS NOT NULL;

-- Small per-channel state that must survive restarts (e.g. Telegram's last update id).
CREATE TABLE channel_state (
    channel     TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (channel, key)
);

-- Structured memory. chat_id NULL means global.
CREATE TABLE memories (
    id                  INTEGER PRIMARY KEY,
    chat_id             INTEGER REFERENCES chats (id) ON DELETE CASCADE,
    category            TEXT    NOT NULL CHECK (category IN ('PROFILE', 'KNOWLEDGE', 'EVENT')),
    content             TEXT    NOT NULL,
    -- who the fact is about, when known (a group member's sender id)
    subject             TEXT,
    confidence          REAL    NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    source              TEXT    NOT NULL CHECK (source IN ('explicit', 'tool', 'reflector')),
    -- JSON array of messages.id the fact came from
    source_message_ids  TEXT    NOT NULL DEFAULT '[]',
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    last_seen_at        INTEGER NOT NULL,
    archived            INTEGER NOT NULL DEFAULT 0,
    archived_at         INTEGER,
    -- the older memory this one replaced (that one is archived, never deleted)
    supersedes_id       INTEGER REFERENCES memories (id) ON DELETE SET NULL
);
CREATE INDEX memories_by_scope ON memories (chat_id, archived, id);
CREATE INDEX memories_by_supersedes ON memories (supersedes_id);

-- The reflector's cursor per chat: the last messages.id it has turned into memories.
CREATE TABLE memory_reflector_state (
    chat_id          INTEGER PRIMARY KEY REFERENCES chats (id) ON DELETE CASCADE,
    last_message_id  INTEGER NOT NULL DEFAULT 0,
    failures         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL DEFAULT 0,
    updated_at       INTEGER NOT NULL
);

CREATE TABLE memory_reflector_runs (
    id             INTEGER PRIMARY KEY,
    chat_id        INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    started_at     INTEGER NOT NULL,
    finished_at    INTEGER,
    messages_read  INTEGER NOT NULL DEFAULT 0,
    extracted      INTEGER NOT NULL DEFAULT 0,
    inserted       INTEGER NOT NULL DEFAULT 0,
    updated        INTEGER NOT NULL DEFAULT 0,
    superseded     INTEGER NOT NULL DEFAULT 0,
    skipped        INTEGER NOT NULL DEFAULT 0,
    dedup_method   TEXT,
    parse_ok       INTEGER NOT NULL DEFAULT 0,
    error          TEXT
);
CREATE INDEX memory_reflector_runs_by_time ON memory_reflector_runs (started_at);

-- One row per prompt built: how many memories were candidates, chosen, left out.
CREATE TABLE memory_injection_logs (
    id          INTEGER PRIMARY KEY,
    chat_id     INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    candidates  INTEGER NOT NULL,
    selected    INTEGER NOT NULL,
    omitted     INTEGER NOT NULL,
    tokens      INTEGER NOT NULL
);
CREATE INDEX memory_injection_logs_by_time ON memory_injection_logs (created_at);

CREATE TABLE llm_usage (
    id             INTEGER PRIMARY KEY,
    chat_id        INTEGER REFERENCES chats (id) ON DELETE SET NULL,
    provider       TEXT    NOT NULL,
    model          TEXT    NOT NULL,
    -- 'chat' for turns, 'reflector' for background extraction
    purpose        TEXT    NOT NULL,
    input_tokens   INTEGER NOT NULL,
    output_tokens  INTEGER NOT NULL,
    created_at     INTEGER NOT NULL
);
CREATE INDEX llm_usage_by_chat ON llm_usage (chat_id, created_at);
