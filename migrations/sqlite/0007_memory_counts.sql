-- How many active memories each scope holds (0 = global, as in memory_terms), kept by
-- triggers: a prompt's "(+N memories omitted)" reads two rows instead of counting a chat's
-- memories on every turn (100k rows: ~7 ms).
CREATE TABLE memory_active_counts (
    scope INTEGER PRIMARY KEY,
    n     INTEGER NOT NULL
);

INSERT INTO memory_active_counts (scope, n)
SELECT COALESCE(chat_id, 0), COUNT(*) FROM memories WHERE archived = 0 GROUP BY 1;

CREATE TRIGGER memory_count_on_insert AFTER INSERT ON memories
WHEN NEW.archived = 0
BEGIN
    INSERT INTO memory_active_counts (scope, n) VALUES (COALESCE(NEW.chat_id, 0), 1)
    ON CONFLICT (scope) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER memory_count_on_delete AFTER DELETE ON memories
WHEN OLD.archived = 0
BEGIN
    UPDATE memory_active_counts SET n = n - 1 WHERE scope = COALESCE(OLD.chat_id, 0);
END;

CREATE TRIGGER memory_count_on_change AFTER UPDATE OF archived, chat_id ON memories
WHEN OLD.archived IS NOT NEW.archived OR OLD.chat_id IS NOT NEW.chat_id
BEGIN
    UPDATE memory_active_counts SET n = n - 1
    WHERE OLD.archived = 0 AND scope = COALESCE(OLD.chat_id, 0);
    INSERT INTO memory_active_counts (scope, n)
    SELECT COALESCE(NEW.chat_id, 0), 1 WHERE NEW.archived = 0
    ON CONFLICT (scope) DO UPDATE SET n = n + 1;
END;
