//! What the benches share: reading a process's memory, finding the local model's files.

use std::path::PathBuf;

/// Resident memory (VmRSS) of process `pid`, or of this one, in MB; 0 where /proc is absent.
pub fn rss_mb(pid: Option<u32>) -> f64 {
    status_mb(pid, "VmRSS")
}

/// A memory figure of `/proc/PID/status` (`field`, such as VmRSS or VmHWM) of process `pid`,
/// or of this one, in MB; 0 where /proc is absent.
pub fn status_mb(pid: Option<u32>, field: &str) -> f64 {
    let path = pid.map_or("/proc/self/status".to_string(), |p| {
        format!("/proc/{p}/status")
    });
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The local all-MiniLM-L6-v2 files: `$MNEME_TEST_MODEL_DIR`, else
/// `target/test-models/all-MiniLM-L6-v2` (`bash scripts/test-model` prepares them); `None` when
/// absent.
pub fn model_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MNEME_TEST_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-models/all-MiniLM-L6-v2")
        });
    dir.join("model.safetensors").exists().then_some(dir)
}
