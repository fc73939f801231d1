-- The consolidation pass's mark holds for the rules it was set under (`RULES` in
-- src/memories/consolidate.rs, a fingerprint of the code that decides whether two memories
-- state one fact or one replaces the other): a build whose rules differ compares every
-- memory again, so facts stored before a rule existed are read by it. A mark from before this
-- column is another build's.
ALTER TABLE memory_consolidation_state ADD COLUMN rules TEXT NOT NULL DEFAULT '';
