-- Hardening: how many times a turn was started for a message owed an answer. An answer that
-- keeps failing (a crash while answering, a delivery the platform always refuses) is given up
-- after a few attempts instead of being re-run at every start.
ALTER TABLE messages ADD COLUMN reply_attempts INTEGER NOT NULL DEFAULT 0;
