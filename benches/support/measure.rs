//! What the benches share: reading a process's memory, finding the local model's files.

use std::path::PathBuf;

/// Resident memory (VmRSS) of process `pid`, or of this one, in MB; 0 where /proc is absent.
pub fn rss_mb(pid: Option<u32>) -> f64 {
    let path = pid.map_or("/proc/self/status".to_string(), |p| {
        format!("/proc/{p}/status")
    });
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
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
