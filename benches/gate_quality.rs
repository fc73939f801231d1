//! The memory gate's content rule, `memory::quality::refusal(text, true)`, on the labelled set
//! `tests/data/gate_set.jsonl`: precision, recall and F1 per refused class (secret,
//! instruction), every miss and every false refusal; then its speed, since it runs on every
//! imported line: lines per second over 100,000 lines built from the set (the median of a few
//! runs), for the whole set and for its facts alone (what an import mostly is).
//!
//! `cargo bench --bench gate_quality`. Figures, never assertions (`tests/gate_quality.rs`
//! asserts the quality bounds). `GATE_QUALITY_SET=<file>` reads another set of the same shape
//! (a held-out batch, such as `tests/data/gate_batch19.jsonl` or `gate_batch20.jsonl`, not
//! yet in the set).

use std::hint::black_box;
use std::time::{Duration, Instant};

use mneme::memory::quality::{Refusal, refusal};
use serde::Deserialize;

const LINES: usize = 100_000;
const RUNS: usize = 5;

#[derive(Deserialize)]
struct Case {
    text: String,
    label: String,
    kind: String,
}

fn predicted(text: &str) -> &'static str {
    match refusal(text, true) {
        Some(Refusal::Secret(_)) => "secret",
        Some(Refusal::Instruction) => "instruction",
        None => "fact",
    }
}

fn report_class(cases: &[Case], class: &str) {
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    let mut misses = Vec::new();
    let mut false_refusals = Vec::new();
    for case in cases {
        let got = predicted(&case.text);
        match (case.label == class, got == class) {
            (true, true) => tp += 1,
            (true, false) => {
                fn_ += 1;
                misses.push(format!("    [{}] {}  → {got}", case.kind, case.text));
            }
            (false, true) => {
                fp += 1;
                false_refusals.push(format!("    [{} {}] {}", case.label, case.kind, case.text));
            }
            (false, false) => {}
        }
    }
    let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    let (p, r) = (ratio(tp, tp + fp), ratio(tp, tp + fn_));
    let f1 = if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    };
    println!(
        "{class:<12} precision {p:.3}  recall {r:.3}  F1 {f1:.3}  ({tp} caught, {fn_} missed, {fp} refused wrongly)"
    );
    for (title, list) in [("missed", &misses), ("refused wrongly", &false_refusals)] {
        if !list.is_empty() {
            println!("  {title}:");
            for line in list {
                println!("{line}");
            }
        }
    }
}

/// Lines per second over `LINES` lines cycled from `texts`: the median of `RUNS` runs.
fn throughput(texts: &[&str]) -> (f64, Duration) {
    let lines: Vec<&str> = texts.iter().copied().cycle().take(LINES).collect();
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            for line in &lines {
                black_box(refusal(black_box(line), true));
            }
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[RUNS / 2];
    (LINES as f64 / median.as_secs_f64(), median)
}

fn main() {
    let path = std::env::var("GATE_QUALITY_SET")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gate_set.jsonl").to_string()
        });
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Case> = data
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("gate set line parses"))
        .collect();
    let count = |label: &str| cases.iter().filter(|c| c.label == label).count();
    let chinese = cases
        .iter()
        .filter(|c| {
            c.text
                .chars()
                .any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch))
        })
        .count();

    // the first call compiles the patterns
    let start = Instant::now();
    black_box(refusal("warm-up", true));
    let first = start.elapsed();

    println!(
        "gate set: {} lines ({} secret, {} instruction, {} fact; {chinese} Chinese)\n",
        cases.len(),
        count("secret"),
        count("instruction"),
        count("fact")
    );
    report_class(&cases, "secret");
    report_class(&cases, "instruction");
    let facts_refused = cases
        .iter()
        .filter(|c| c.label == "fact" && predicted(&c.text) != "fact")
        .count();
    println!("facts refused: {facts_refused} of {}\n", count("fact"));

    println!(
        "first call (compiling the patterns): {:.1} ms",
        first.as_secs_f64() * 1e3
    );
    let all: Vec<&str> = cases.iter().map(|c| c.text.as_str()).collect();
    let facts: Vec<&str> = cases
        .iter()
        .filter(|c| c.label == "fact")
        .map(|c| c.text.as_str())
        .collect();
    for (name, texts) in [("whole set", &all), ("facts only", &facts)] {
        let (per_second, median) = throughput(texts);
        println!(
            "{name:<10} {LINES} lines in {:.0} ms (median of {RUNS}): {:.0} lines/s, {:.2} µs/line",
            median.as_secs_f64() * 1e3,
            per_second,
            median.as_secs_f64() * 1e6 / LINES as f64
        );
    }
}
