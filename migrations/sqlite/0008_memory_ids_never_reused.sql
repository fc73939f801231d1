-- A memory's id is never handed out again once its memory is deleted. SQLite gives a new row
-- the largest rowid + 1, so deleting the newest memory freed its id for the next one: a
-- `/forget 24` typed from an older list, or `mneme memory forget 24`, would then delete
-- another fact. (PostgreSQL's identity never reuses an id.) The store inserts memories with
-- ids above both the largest in the table and the largest ever deleted, kept here.
CREATE TABLE memory_id_floor (
    k INTEGER PRIMARY KEY CHECK (k = 0),
    n INTEGER NOT NULL
);

INSERT INTO memory_id_floor (k, n) SELECT 0, COALESCE(MAX(id), 0) FROM memories;

CREATE TRIGGER memory_id_floor_on_delete AFTER DELETE ON memories
BEGIN
    UPDATE memory_id_floor SET n = MAX(n, OLD.id) WHERE k = 0;
END;
