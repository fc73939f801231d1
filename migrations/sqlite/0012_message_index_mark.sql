-- Messages wait for the full-text index by their id alone: every message whose id is past
-- `upto` waits, every other one is indexed. An insert then runs no trigger, where noting its
-- id (migration 0011) made SQLite treat it as a statement that may write several rows and
-- fail midway, and copy every page it touched — the message's table and index pages — into a
-- statement journal first: about a twentieth of a message's instructions, twice a message
-- (its arrival and its answer). A new message's id is one past the largest, so it is past
-- the mark whichever path writes it; a delete that leaves the mark past the largest id left
-- brings the mark down to it, so that the next id is past it again.
CREATE TABLE message_fts_indexed (
    id   INTEGER PRIMARY KEY CHECK (id = 0),
    upto INTEGER NOT NULL
);

-- What is noted now is indexed now, so that the mark can start at the newest message.
INSERT INTO message_fts (rowid, search_text)
    SELECT m.id, m.search_text FROM message_fts_pending p JOIN messages m ON m.id = p.id
     WHERE COALESCE(m.search_text, '') != '';
INSERT INTO message_fts_indexed (id, upto) SELECT 0, COALESCE(MAX(id), 0) FROM messages;

DROP TRIGGER message_fts_insert;
DROP TABLE message_fts_pending;

-- A message past the mark is not in the index yet: the text it has when indexed is the one
-- indexed.
DROP TRIGGER message_fts_update;
CREATE TRIGGER message_fts_update AFTER UPDATE OF search_text ON messages
WHEN OLD.id <= (SELECT upto FROM message_fts_indexed)
BEGIN
    DELETE FROM message_fts WHERE rowid = OLD.id;
    INSERT INTO message_fts (rowid, search_text)
        SELECT NEW.id, NEW.search_text WHERE COALESCE(NEW.search_text, '') != '';
END;

DROP TRIGGER message_fts_delete;
CREATE TRIGGER message_fts_delete AFTER DELETE ON messages
BEGIN
    DELETE FROM message_fts WHERE rowid = OLD.id;
    UPDATE message_fts_indexed SET upto = (SELECT COALESCE(MAX(id), 0) FROM messages)
     WHERE upto > (SELECT COALESCE(MAX(id), 0) FROM messages);
END;
