-- Within a chat, a message's id is drawn in commit order (PostgreSQL only).
--
-- The reflector reads a chat's messages after its cursor (`id > last_message_id`) and moves
-- the cursor to the last id it read. SQLite has one writer, so ids there commit in order.
-- PostgreSQL's identity does not: the intake's transaction may draw id 10 for a person's
-- message, the bot's answer to the message before it id 11 and commit first; a reflector pass
-- in between reads 11, moves the cursor past 10, and message 10 is never reflected.
--
-- So each insert first takes a transaction lock on its chat, and only then draws the id: a
-- chat's next message cannot get an id until the transaction holding an earlier one has
-- ended. The lock is advisory, in the two-key space (apart from the single-key write lock,
-- leases and turn locks), keyed by a hash of the chat id (two chats sharing a key only wait
-- for each other). An id given explicitly is replaced, as memory_vectors' seq is.
CREATE FUNCTION messages_id_in_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1296913223, hashint8(NEW.chat_id)); -- 'MMSG'
    NEW.id := nextval(pg_get_serial_sequence('messages', 'id'));
    RETURN NEW;
END;
$$;
CREATE TRIGGER messages_id_in_commit_order BEFORE INSERT ON messages
FOR EACH ROW EXECUTE FUNCTION messages_id_in_commit_order();
