-- A memory is now also found by the initials its runs of names spell ("a Master of Business
-- Administration" by "mba"; `store/memory_terms.rs` `postings_of`). The active memories that
-- may hold such a run (three capitalised words) are indexed again at open, as the backlog is.
INSERT INTO memory_terms_backlog (memory_id)
    SELECT id FROM memories
     WHERE archived = 0 AND content GLOB '*[A-Z][a-z]*[A-Z][a-z]*[A-Z][a-z]*'
    ON CONFLICT DO NOTHING;
