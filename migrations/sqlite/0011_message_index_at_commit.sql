-- Messages join the full-text index once per write transaction, just before it commits,
-- instead of by a trigger at each insert. fts5 writes the entries it holds in memory out as a
-- segment of their own whenever a later statement of the same transaction opens a savepoint
-- (every insert that fires a trigger does), so a transaction of a hundred arrivals wrote a
-- hundred one-message segments and then merged them: about a tenth of a message's
-- instructions (scripts/callgrind-turns). An insert now only notes its message here, so no
-- path can forget one; the store indexes what is noted before each commit of its inline
-- writer (`store/inline/`), before it searches messages, and at open (`store/search.rs`).
CREATE TABLE message_fts_pending (id INTEGER PRIMARY KEY);

DROP TRIGGER message_fts_insert;
CREATE TRIGGER message_fts_insert AFTER INSERT ON messages
WHEN COALESCE(NEW.search_text, '') != ''
BEGIN
    INSERT OR IGNORE INTO message_fts_pending (id) VALUES (NEW.id);
END;

-- A noted message is not in the index yet: the text it has when indexed is the one indexed.
DROP TRIGGER message_fts_update;
CREATE TRIGGER message_fts_update AFTER UPDATE OF search_text ON messages
WHEN NOT EXISTS (SELECT 1 FROM message_fts_pending WHERE id = OLD.id)
BEGIN
    DELETE FROM message_fts WHERE rowid = OLD.id;
    INSERT INTO message_fts (rowid, search_text)
        SELECT NEW.id, NEW.search_text WHERE COALESCE(NEW.search_text, '') != '';
END;

DROP TRIGGER message_fts_delete;
CREATE TRIGGER message_fts_delete AFTER DELETE ON messages
BEGIN
    DELETE FROM message_fts_pending WHERE id = OLD.id;
    DELETE FROM message_fts WHERE rowid = OLD.id;
END;
