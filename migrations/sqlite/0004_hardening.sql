-- Hardening: how many times a turn was started for a message owed an answer. An answer that
-- keeps failing (a crash while answering, a delivery the platform always refuses) is given up
-- after a few attempts instead of being re-run at every start.
ALTER TABLE messages ADD COLUMN reply_attempts INTEGER NOT NULL DEFAULT 0;

-- The reflector: unreadable answers in a row for the batch at a chat's cursor. After
-- reflector_max_parse_failures the batch is set aside (recorded below) and the cursor moves on,
-- so one message the model always answers with garbage cannot stop a chat's reflection.
ALTER TABLE memory_reflector_state ADD COLUMN parse_failures INTEGER NOT NULL DEFAULT 0;

CREATE TABLE memory_reflector_set_aside (
    id                INTEGER PRIMARY KEY,
    chat_id           INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    -- The batch: the messages after `after_message_id` up to `last_message_id`.
    after_message_id  INTEGER NOT NULL,
    last_message_id   INTEGER NOT NULL,
    attempts          INTEGER NOT NULL,
    error             TEXT    NOT NULL,
    set_aside_at      INTEGER NOT NULL
);
CREATE INDEX memory_reflector_set_aside_by_time ON memory_reflector_set_aside (set_aside_at);
