//! The real `mneme` binary, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `mneme --config CONFIG …` with pipes, no secrets or config path from the environment,
/// killed if the test drops it.
pub fn command(config: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mneme"));
    cmd.arg("--config")
        .arg(config)
        .args(args)
        .env_remove("MNEME_API_KEY")
        .env_remove("MNEME_CONFIG")
        .env_remove("MNEME_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

/// Runs `mneme` to the end with `stdin` as its input.
pub async fn mneme(config: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = command(config, args).spawn().expect("mneme runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    let out = tokio::time::timeout(std::time::Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("mneme finishes")
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn write_config(dir: &Path, yaml: &str) -> PathBuf {
    let path = dir.join("config.yaml");
    std::fs::write(&path, yaml).unwrap();
    path
}
