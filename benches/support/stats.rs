//! Figures read off a load: percentiles of samples, CPU time of a process.

use std::time::Duration;

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Nearest-rank percentile `p` (0–1) of sorted `v`.
pub fn pct(v: &[f64], p: f64) -> f64 {
    v[((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1]
}

/// The p50 of each group that has samples, one decimal each (the groups are sorted).
pub fn p50s(groups: &mut [Vec<f64>]) -> Vec<String> {
    (groups.iter_mut().filter(|g| !g.is_empty()))
        .map(|g| {
            g.sort_by(f64::total_cmp);
            format!("{:.1}", pct(g, 0.5))
        })
        .collect()
}

pub fn percentiles(mut v: Vec<f64>) -> String {
    if v.is_empty() {
        return "n/a".into();
    }
    v.sort_by(f64::total_cmp);
    let (p50, p95, p99) = (pct(&v, 0.5), pct(&v, 0.95), pct(&v, 0.99));
    format!("p50 {p50:6.1} ms   p95 {p95:6.1} ms   p99 {p99:6.1} ms")
}

/// CPU seconds (user + system) process `pid` ("self": this one) used so far; 0 without /proc.
pub fn cpu_secs(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // after the command's closing parenthesis, utime and stime are the 12th and 13th fields
    let fields = stat.rsplit(')').next().unwrap_or("").split_whitespace();
    let ticks: f64 = fields
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<f64>().ok())
        .sum();
    ticks / 100.0 // USER_HZ
}

/// CPU seconds all processes named `postgres` (a local PostgreSQL server: its postmaster,
/// backends and helpers) used so far, those that ended and were reaped by the postmaster
/// included; 0 without /proc or such a server.
pub fn postgres_cpu_secs() -> f64 {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    let mut ticks = 0.0;
    for entry in procs.flatten() {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        if !head.ends_with("(postgres") {
            continue;
        }
        // utime, stime, cutime, cstime: the 12th to 15th fields after the command
        let fields = rest.split_whitespace().skip(11).take(4);
        ticks += fields.filter_map(|f| f.parse::<f64>().ok()).sum::<f64>();
    }
    ticks / 100.0 // USER_HZ
}

/// Context switches (voluntary, involuntary) of all of process `pid`'s threads so far, and
/// how many threads it has; zeros without /proc. A thread that ended takes its count along.
pub fn switches(pid: &str) -> (u64, u64, usize) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return (0, 0, 0);
    };
    let (mut voluntary, mut involuntary, mut threads) = (0, 0, 0);
    for task in tasks.flatten() {
        let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
        threads += 1;
        for line in status.lines() {
            let count = |prefix: &str| {
                line.strip_prefix(prefix)
                    .and_then(|n| n.trim().parse::<u64>().ok())
            };
            if let Some(n) = count("voluntary_ctxt_switches:") {
                voluntary += n;
            } else if let Some(n) = count("nonvoluntary_ctxt_switches:") {
                involuntary += n;
            }
        }
    }
    (voluntary, involuntary, threads)
}
