-- Retrieval: full-text search (FTS5, BM25) over memories and messages, embedding vectors,
-- and keyed memories for the memory_store tool. Times are Unix milliseconds (UTC).

-- `search_text` is the row's text as search sees it: memory::text::terms joined by spaces
-- (lowercase, stop words out, Chinese and Japanese as character bigrams), written by the store
-- in Rust whenever it writes the text, because SQL cannot compute it. '' = not searchable
-- (commands, the bot's acknowledgements); NULL = not computed yet (rows older than this
-- migration: `Store::open` fills them in, see `search_backlog`).
ALTER TABLE memories ADD COLUMN search_text TEXT;
ALTER TABLE messages ADD COLUMN search_text TEXT;
CREATE INDEX memories_search_backlog ON memories (id) WHERE search_text IS NULL;
CREATE INDEX messages_search_backlog ON messages (id) WHERE search_text IS NULL;

-- A name the model gives a memory (memory_store{key}), unique among a scope's active memories.
ALTER TABLE memories ADD COLUMN key TEXT;
CREATE UNIQUE INDEX memories_by_key ON memories (COALESCE(chat_id, 0), key)
    WHERE key IS NOT NULL AND archived = 0;

-- The full-text indexes hold only what may be found: active memories, searchable messages.
-- Contentless (the text lives in the tables above) with deletes, kept by the triggers below,
-- so no code path can forget them. Porter stemming lets "dogs" find "dog".
CREATE VIRTUAL TABLE memory_fts USING fts5(
    search_text, content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE message_fts USING fts5(
    search_text, content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER memory_fts_insert AFTER INSERT ON memories
WHEN NEW.archived = 0 AND COALESCE(NEW.search_text, '') != ''
BEGIN
    INSERT INTO memory_fts (rowid, search_text) VALUES (NEW.id, NEW.search_text);
END;

CREATE TRIGGER memory_fts_update AFTER UPDATE OF search_text, archived ON memories
BEGIN
    DELETE FROM memory_fts WHERE rowid = OLD.id;
    INSERT INTO memory_fts (rowid, search_text)
        SELECT NEW.id, NEW.search_text WHERE NEW.archived = 0 AND COALESCE(NEW.search_text, '') != '';
END;

CREATE TRIGGER memory_fts_delete AFTER DELETE ON memories
BEGIN
    DELETE FROM memory_fts WHERE rowid = OLD.id;
END;

CREATE TRIGGER message_fts_insert AFTER INSERT ON messages
WHEN COALESCE(NEW.search_text, '') != ''
BEGIN
    INSERT INTO message_fts (rowid, search_text) VALUES (NEW.id, NEW.search_text);
END;

CREATE TRIGGER message_fts_update AFTER UPDATE OF search_text ON messages
BEGIN
    DELETE FROM message_fts WHERE rowid = OLD.id;
    INSERT INTO message_fts (rowid, search_text)
        SELECT NEW.id, NEW.search_text WHERE COALESCE(NEW.search_text, '') != '';
END;

CREATE TRIGGER message_fts_delete AFTER DELETE ON messages
BEGIN
    DELETE FROM message_fts WHERE rowid = OLD.id;
END;

-- One embedding per memory, for the model that made it. `seq` grows with every write, so a
-- process holding vectors in memory loads only what is newer than what it has.
CREATE TABLE memory_vectors (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id  INTEGER NOT NULL UNIQUE REFERENCES memories (id) ON DELETE CASCADE,
    -- memories.chat_id, 0 for global (as in memory_terms)
    scope      INTEGER NOT NULL,
    model      TEXT    NOT NULL,
    dim        INTEGER NOT NULL,
    -- little-endian f32 × dim, L2-normalised
    vector     BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX memory_vectors_by_scope ON memory_vectors (scope, seq);

-- Bumped on every vector written or removed in a scope: one row read tells a process whether
-- the vectors it holds for that scope are current.
CREATE TABLE memory_vector_generations (
    scope  INTEGER PRIMARY KEY,
    gen    INTEGER NOT NULL
);

CREATE TRIGGER memory_vectors_gen_insert AFTER INSERT ON memory_vectors
BEGIN
    INSERT INTO memory_vector_generations (scope, gen) VALUES (NEW.scope, 1)
    ON CONFLICT (scope) DO UPDATE SET gen = gen + 1;
END;

CREATE TRIGGER memory_vectors_gen_delete AFTER DELETE ON memory_vectors
BEGIN
    UPDATE memory_vector_generations SET gen = gen + 1 WHERE scope = OLD.scope;
END;

-- Active memories waiting for an embedding: new ones, changed ones, and (when the model
-- changes) all of them. Persisted, so a backfill survives restarts and resumes where it was.
CREATE TABLE memory_embedding_queue (
    memory_id  INTEGER PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE
);

CREATE TRIGGER memory_embed_on_insert AFTER INSERT ON memories
WHEN NEW.archived = 0
BEGIN
    INSERT OR IGNORE INTO memory_embedding_queue (memory_id) VALUES (NEW.id);
END;

-- New words, new vector: the old one no longer says what the memory says.
CREATE TRIGGER memory_embed_on_edit AFTER UPDATE OF content ON memories
WHEN NEW.content != OLD.content
BEGIN
    DELETE FROM memory_vectors WHERE memory_id = NEW.id;
    INSERT OR IGNORE INTO memory_embedding_queue (memory_id) SELECT NEW.id WHERE NEW.archived = 0;
END;

-- Archived memories are never searched: their vectors go (as their postings and FTS rows do).
CREATE TRIGGER memory_embed_on_archive AFTER UPDATE OF archived ON memories
BEGIN
    DELETE FROM memory_vectors WHERE memory_id = NEW.id AND NEW.archived = 1;
    DELETE FROM memory_embedding_queue WHERE memory_id = NEW.id AND NEW.archived = 1;
    INSERT OR IGNORE INTO memory_embedding_queue (memory_id)
        SELECT NEW.id WHERE NEW.archived = 0 AND OLD.archived = 1;
END;

INSERT INTO memory_embedding_queue (memory_id) SELECT id FROM memories WHERE archived = 0;
