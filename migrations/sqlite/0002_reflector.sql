-- The reflector's indexes. Times are Unix milliseconds (UTC).

-- Inverted index over the terms (memory::text::terms) of every ACTIVE memory, so a dedup check
-- or the reflector's "similar memories" reads the rows that share a term with the fact instead
-- of every row of the scope. The store writes a memory's terms whenever it inserts an active
-- memory or changes its content; a memory's terms leave when it is archived (trigger below)
-- or deleted (cascade). `scope` is memories.chat_id, 0 for global memories, so one chat's
-- lookups never walk another chat's postings.
CREATE TABLE memory_terms (
    scope      INTEGER NOT NULL,
    term       TEXT    NOT NULL,
    memory_id  INTEGER NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    PRIMARY KEY (scope, term, memory_id)
) WITHOUT ROWID;
CREATE INDEX memory_terms_by_memory ON memory_terms (memory_id);

-- How many active memories of a scope hold each term, kept by the triggers below. A dedup
-- check reads the postings of a fact's RAREST terms only: a row sharing m of a fact's k terms
-- must share one of its k - m + 1 rarest (prefix filtering), so the words every memory has
-- ("alice", "likes") are never walked.
CREATE TABLE memory_term_df (
    scope  INTEGER NOT NULL,
    term   TEXT    NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (scope, term)
) WITHOUT ROWID;

CREATE TRIGGER memory_term_df_up AFTER INSERT ON memory_terms
BEGIN
    INSERT INTO memory_term_df (scope, term, n) VALUES (NEW.scope, NEW.term, 1)
    ON CONFLICT (scope, term) DO UPDATE SET n = n + 1;
END;

-- Also fires for postings removed by the cascade from memories.
CREATE TRIGGER memory_term_df_down AFTER DELETE ON memory_terms
BEGIN
    UPDATE memory_term_df SET n = n - 1 WHERE scope = OLD.scope AND term = OLD.term;
    DELETE FROM memory_term_df WHERE scope = OLD.scope AND term = OLD.term AND n <= 0;
END;

-- Archived memories are never dedup candidates: whatever archives a row, its postings go.
CREATE TRIGGER memory_terms_leave_on_archive
AFTER UPDATE OF archived ON memories
WHEN NEW.archived = 1 AND OLD.archived = 0
BEGIN
    DELETE FROM memory_terms WHERE memory_id = NEW.id;
END;

-- Active memories written before the index existed. SQL cannot compute terms (CJK bigrams,
-- stop words), so `Store::open` indexes these in Rust and empties the table.
CREATE TABLE memory_terms_backlog (
    memory_id  INTEGER PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE
);
INSERT INTO memory_terms_backlog (memory_id) SELECT id FROM memories WHERE archived = 0;

-- The reflector's context ("the chat's most recently seen memories") and the lifecycle's
-- stale-row sweep read memories by last_seen_at within a scope.
CREATE INDEX memories_by_scope_seen ON memories (chat_id, archived, last_seen_at);
