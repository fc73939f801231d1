//! Cron expressions and time zones: parsing (with the key's error message), the next run, and
//! what a config's schedules say in words.

use chrono::TimeZone;
use croner::Cron;
use croner::parser::{CronParser, Seconds};

use super::Config;

fn parser() -> CronParser {
    CronParser::builder()
        .seconds(Seconds::Required)
        .dom_and_dow(true)
        .build()
}

/// `expr` as a six-field cron expression, or why it is not one.
pub fn parse_cron(expr: &str) -> Result<String, String> {
    let fields = expr.split_whitespace().count();
    let six = match fields {
        5 => format!("0 {}", expr.trim()),
        6 | 7 => expr.split_whitespace().collect::<Vec<_>>().join(" "),
        n => {
            return Err(format!(
                "`{expr}` has {n} fields; expected 6 (second minute hour day month weekday) or 5 (without the second)"
            ));
        }
    };
    parser()
        .parse(&six)
        .map_err(|e| format!("`{expr}` is not a cron expression: {e}"))?;
    Ok(six)
}

/// An IANA time zone name (`UTC`, `Europe/Lisbon`).
pub fn parse_timezone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.trim().parse::<chrono_tz::Tz>().map_err(|_| {
        format!("`{name}` is not a time zone name; use an IANA name such as UTC or Europe/Lisbon")
    })
}

/// The first time (Unix ms) after `after_ms` that the six-field `expr` names in `tz`.
pub fn next_run(expr: &str, tz: chrono_tz::Tz, after_ms: i64) -> Option<i64> {
    let cron: Cron = parser().parse(expr).ok()?;
    let after = tz.timestamp_millis_opt(after_ms).single()?;
    cron.find_next_occurrence(&after, false)
        .ok()
        .map(|t| t.timestamp_millis())
}

/// The schedules in force, a line each, as `check-config` prints them.
pub fn describe(c: &Config) -> Vec<String> {
    let tz = c.schedule_timezone.trim();
    let mut out = Vec::new();
    out.push(if !c.reflector_enabled {
        "reflector: off (reflector_enabled: false)".to_string()
    } else if c.reflector_schedule.trim().is_empty() {
        format!(
            "reflector: every {} min (reflector_interval_mins; reflector_schedule is empty)",
            c.reflector_interval_mins
        )
    } else {
        format!(
            "reflector: `{}` in {tz} (reflector_schedule; reflector_interval_mins is not used)",
            c.reflector_schedule.trim()
        )
    });
    out.push(if c.lifecycle_schedule.trim().is_empty() {
        "lifecycle sweep: after every reflector pass (lifecycle_schedule is empty)".to_string()
    } else {
        format!(
            "lifecycle sweep: `{}` in {tz} (lifecycle_schedule)",
            c.lifecycle_schedule.trim()
        )
    });
    out.push(if c.backend() == crate::base::Backend::Postgres {
        "backup: not by Mneme on PostgreSQL (backup_schedule is not used): back it up with pg_dump"
            .into()
    } else if c.backup_schedule.trim().is_empty() {
        "backup: never on a schedule (backup_schedule is empty); `mneme backup` makes one".into()
    } else {
        format!(
            "backup: `{}` in {tz}, keeping {} (backup_schedule, backup_keep)",
            c.backup_schedule.trim(),
            c.backup_keep
        )
    });
    out.push(if c.log_retention_days == 0 {
        "log pruning: never (log_retention_days is 0)".to_string()
    } else {
        format!(
            "log pruning: daily at 04:00 in {tz}, keeping {} days (log_retention_days)",
            c.log_retention_days
        )
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cron_expressions_with_and_without_seconds() {
        assert_eq!(parse_cron("0 */15 * * * *").unwrap(), "0 */15 * * * *");
        assert_eq!(parse_cron(" 30 3 * * * ").unwrap(), "0 30 3 * * *");
        assert!(parse_cron("every night").unwrap_err().contains("fields"));
        assert!(
            parse_cron("0 99 * * * *")
                .unwrap_err()
                .contains("not a cron expression")
        );
        assert_eq!(
            parse_timezone("Europe/Lisbon").unwrap(),
            chrono_tz::Europe::Lisbon
        );
        assert!(parse_timezone("Mars/Olympus").is_err());
    }

    #[test]
    fn next_run_is_read_in_the_time_zone() {
        // 2026-01-15 12:00:00 UTC
        let noon = 1_768_478_400_000;
        let three_am = parse_cron("0 0 3 * * *").unwrap();
        assert_eq!(
            next_run(&three_am, chrono_tz::UTC, noon),
            Some(noon + 15 * 3_600_000),
            "03:00 UTC tomorrow"
        );
        // Tokyo is UTC+9: 03:00 there is 18:00 UTC today
        assert_eq!(
            next_run(&three_am, chrono_tz::Asia::Tokyo, noon),
            Some(noon + 6 * 3_600_000)
        );
        let quarter = parse_cron("0 */15 * * * *").unwrap();
        assert_eq!(
            next_run(&quarter, chrono_tz::UTC, noon),
            Some(noon + 15 * 60_000),
            "strictly after"
        );
    }

    #[test]
    fn describe_says_which_reflector_setting_is_in_force() {
        let mut c = Config::default();
        assert!(describe(&c)[0].contains("every 15 min"));
        assert!(
            describe(&c)[2].contains("0 0 3 * * *"),
            "nightly backup by default"
        );
        assert!(describe(&c)[3].contains("daily at 04:00 in UTC, keeping 90 days"));
        c.reflector_schedule = "0 */10 * * * *".into();
        assert!(describe(&c)[0].contains("reflector_interval_mins is not used"));
        c.lifecycle_schedule = String::new();
        assert!(describe(&c)[1].contains("after every reflector pass"));
    }
}
