//! Where a message's time goes, stage by stage, from the daemons' timeline log: with
//! `MNEME_LOG=…,mneme::timeline=trace` the daemon logs each message's stages (`received`,
//! `stored`, `turn`, `started`, `asking`, `answered`, `sent`, `recorded`) with its chat.
//! A chat has one message in flight at a time, so its n-th line of a stage belongs to its n-th
//! message.

use std::collections::HashMap;

use crate::stats::{p50s, pct};

/// The log filter that turns the timeline on.
pub const FILTER: &str = "mneme=info,mneme::timeline=trace";

/// The stages in the order a message passes them: `posted` (the bench handed it over) and
/// `at model` (its request reached the fake model) are the bench's, the rest the daemon's.
const STAGES: [&str; 10] = [
    "posted", "received", "stored", "turn", "started", "asking", "at model", "answered", "sent",
    "recorded",
];

/// Prints, for each step from one stage to the next, its p50 and p95 over all messages and its
/// p50 for the 1st, 2nd, … message of a chat, in ms, read from the daemons' `logs` and the
/// bench's own `stamps` (chat, stage, µs since the epoch; each chat's in message order).
pub fn print(logs: &str, stamps: &[(String, &'static str, i64)]) {
    // chat → stage → times (µs since the epoch), in log order.
    let mut seen: HashMap<&str, HashMap<&str, Vec<i64>>> = HashMap::new();
    for (chat, stage, at) in stamps {
        (seen.entry(chat).or_default().entry(stage).or_default()).push(*at);
    }
    for line in logs.lines().filter(|l| l.contains("mneme::timeline:")) {
        let Some((at, rest)) = line.split_once(' ') else {
            continue;
        };
        let Ok(at) = chrono::DateTime::parse_from_rfc3339(at) else {
            continue;
        };
        let Some(stage) = STAGES.iter().find(|s| rest.contains(&format!(": {s} "))) else {
            continue;
        };
        let Some(chat) = rest.split("chat=").nth(1) else {
            continue;
        };
        let chat = chat.split_whitespace().next().unwrap_or_default();
        (seen.entry(chat).or_default().entry(stage).or_default()).push(at.timestamp_micros());
    }
    if seen.is_empty() {
        println!("  timeline: no stage was logged");
        return;
    }
    println!(
        "  timeline, ms (p50 and p95 over all messages; p50 of the 1st / 2nd / … message of a chat):"
    );
    for pair in STAGES.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let mut by_message: Vec<Vec<f64>> = Vec::new();
        for stages in seen.values() {
            let (Some(a), Some(b)) = (stages.get(from), stages.get(to)) else {
                continue;
            };
            for (n, (a, b)) in a.iter().zip(b).enumerate() {
                if by_message.len() <= n {
                    by_message.push(Vec::new());
                }
                by_message[n].push((b - a) as f64 / 1000.0);
            }
        }
        if by_message.is_empty() {
            continue;
        }
        let mut all: Vec<f64> = by_message.concat();
        all.sort_by(f64::total_cmp);
        let rounds = p50s(&mut by_message);
        println!(
            "    {from:>8} → {to:<8}  {:6.1} {:6.1}   {}",
            pct(&all, 0.5),
            pct(&all, 0.95),
            rounds.join(" / ")
        );
    }
}
