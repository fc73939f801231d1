-- A memory's history: what happened to it and when, for `mneme memory show ID` and the
-- console. Triggers write what any path does to a row (created, reworded, archived,
-- superseded, restored); the memory service writes what only it knows (reinforced: the fact
-- came up again; merged: another memory or wording was folded into this one).
CREATE TABLE memory_events (
    id                  INTEGER PRIMARY KEY,
    memory_id           INTEGER NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    at                  INTEGER NOT NULL,
    -- created | reinforced | reworded | merged | superseded | archived | restored
    kind                TEXT    NOT NULL,
    -- merged: the memory folded into this one; superseded: the memory that replaced it
    other_id            INTEGER,
    -- reworded: the wording before; reinforced / merged: the wording that came in
    content             TEXT,
    -- JSON array of messages.id behind this event
    source_message_ids  TEXT    NOT NULL DEFAULT '[]',
    -- why, in words ("same fact: reworded", "model said duplicate_of")
    note                TEXT
);
CREATE INDEX memory_events_by_memory ON memory_events (memory_id, id);

CREATE TRIGGER memory_history_created AFTER INSERT ON memories
BEGIN
    INSERT INTO memory_events (memory_id, at, kind, content, source_message_ids, note)
    VALUES (new.id, new.created_at, 'created', new.content, new.source_message_ids, new.source);
    INSERT INTO memory_events (memory_id, at, kind, other_id)
    SELECT new.supersedes_id, new.created_at, 'superseded', new.id
    WHERE new.supersedes_id IS NOT NULL;
END;

CREATE TRIGGER memory_history_reworded AFTER UPDATE OF content ON memories
WHEN old.content <> new.content
BEGIN
    INSERT INTO memory_events (memory_id, at, kind, content)
    VALUES (new.id, new.updated_at, 'reworded', old.content);
END;

CREATE TRIGGER memory_history_archived AFTER UPDATE OF archived ON memories
WHEN old.archived <> new.archived
BEGIN
    INSERT INTO memory_events (memory_id, at, kind)
    VALUES (new.id, COALESCE(new.archived_at, new.updated_at),
            CASE WHEN new.archived THEN 'archived' ELSE 'restored' END);
END;

-- A replacement linked afterwards (the reflector archives the old row, then links the new
-- one to it).
CREATE TRIGGER memory_history_superseded AFTER UPDATE OF supersedes_id ON memories
WHEN new.supersedes_id IS NOT NULL AND old.supersedes_id IS NOT new.supersedes_id
BEGIN
    INSERT INTO memory_events (memory_id, at, kind, other_id)
    VALUES (new.supersedes_id, new.updated_at, 'superseded', new.id);
END;

-- Memories from before history began: their creation, as far as it is known.
INSERT INTO memory_events (memory_id, at, kind, content, source_message_ids, note)
SELECT id, created_at, 'created', content, source_message_ids, source FROM memories;

-- The consolidation pass (duplicates that slipped through, merged later): per scope, the
-- highest memory id already compared with the rest, so each memory is looked at once.
CREATE TABLE memory_consolidation_state (
    scope           INTEGER PRIMARY KEY,
    last_memory_id  INTEGER NOT NULL
);
