-- Scheduled jobs of the daemon (the reflector, the lifecycle sweep, the backup): when each
-- last ran, how that went and when it runs next, so `mneme usage` and the console can say.
CREATE TABLE scheduled_jobs (
    name              TEXT    PRIMARY KEY,
    -- The schedule in force, as a person reads it ("0 0 3 * * * UTC", "every 15 min").
    schedule          TEXT    NOT NULL,
    last_started_at   INTEGER,
    last_finished_at  INTEGER,
    -- NULL while never run or running; 1 ok, 0 failed (last_error says why).
    last_ok           INTEGER,
    last_error        TEXT,
    next_run_at       INTEGER
);
