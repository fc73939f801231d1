-- Logs that grow a row a turn are pruned after `log_retention_days` (`store/retention.rs`).
--
-- The token log keeps its totals: rows past the retention are rolled up into one row per chat,
-- provider, model and purpose, `calls` saying how many calls the row stands for.
ALTER TABLE llm_usage ADD COLUMN calls BIGINT NOT NULL DEFAULT 1;
-- A chat's last prompt injection (`/memories`), and each chat's newest row, which the pruning
-- keeps.
CREATE INDEX memory_injection_logs_by_chat ON memory_injection_logs (chat_id, id);
