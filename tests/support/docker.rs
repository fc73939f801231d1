//! Driving a real Docker engine from the tests: building `mneme:test` from the repository's
//! Dockerfile on a machine with no container registry, and small wrappers around the CLI.
//!
//! What stands in for the registry's images (and nothing else is changed):
//! - `debian:bookworm-slim` → `mneme-test-base:bookworm`, a minimal bookworm made from
//!   Debian's packages by `scripts/docker-test-base` (debootstrap + `docker import`), through
//!   the Dockerfile's `BASE_IMAGE` argument;
//! - the `build` stage (which needs `rust:1-bookworm`) → `mneme-test-binary:test`, an image
//!   holding the `mneme` this test run built on the host (debug symbols stripped), through the
//!   `BINARY_STAGE` argument; BuildKit then skips the `build` stage entirely;
//! - `postgres:15` (in `docker-compose.replicas.yml`) → `mneme-test-postgres:test`, built from
//!   `docker/postgres/` on the same base with Debian's PostgreSQL, keeping the official image's
//!   `POSTGRES_USER` / `POSTGRES_PASSWORD` / `POSTGRES_DB` contract.
//!
//! BuildKit is needed for that skip. Docker's own client has it through the buildx plugin;
//! Debian's `docker.io` client (20.10, `/usr/bin/docker`) has it built in with
//! `DOCKER_BUILDKIT=1`. Whichever is present builds; without either the test says so.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub const IMAGE: &str = "mneme:test";
pub const BASE_IMAGE: &str = "mneme-test-base:bookworm";
pub const BINARY_IMAGE: &str = "mneme-test-binary:test";
pub const POSTGRES_IMAGE: &str = "mneme-test-postgres:test";

/// Builds `mneme-test-postgres:test` once per test run (after `mneme:test`, whose build made
/// the base image).
pub fn postgres_image() -> &'static Result<(), String> {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    BUILT.get_or_init(|| {
        image().clone()?;
        let client = buildkit_client()?;
        let base = format!("BASE_IMAGE={BASE_IMAGE}");
        run_build(
            &client,
            &repo().join("docker/postgres"),
            &["-t", POSTGRES_IMAGE, "--build-arg", &base],
        )
    })
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `docker ARGS…`, failing the test with its output when it fails.
pub fn docker(args: &[&str]) -> String {
    let out = docker_output(args);
    assert!(
        out.status.success(),
        "docker {} failed ({}):\n{}{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `docker ARGS…`, whatever it answers.
pub fn docker_output(args: &[&str]) -> Output {
    Command::new("docker")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the docker CLI runs")
}

/// Is there an engine to talk to? `Err` says why not.
pub fn engine() -> Result<(), String> {
    match Command::new("docker")
        .args(["info", "--format", "{{.ServerVersion}}"])
        .stdin(Stdio::null())
        .output()
    {
        Err(e) => Err(format!("the docker CLI ({e})")),
        Ok(o) if !o.status.success() => Err(format!(
            "a running Docker engine (docker info: {})",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(_) => Ok(()),
    }
}

/// A docker client that builds with BuildKit: `docker` with buildx, else Debian's 20.10 client
/// with BuildKit built in.
fn buildkit_client() -> Result<PathBuf, String> {
    let quiet = |cmd: &mut Command| {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if quiet(Command::new("docker").args(["buildx", "version"])) {
        return Ok(PathBuf::from("docker"));
    }
    for candidate in ["/usr/bin/docker", "/usr/local/bin/docker"] {
        let Ok(out) = Command::new(candidate)
            .args(["version", "--format", "{{.Client.Version}}"])
            .stdin(Stdio::null())
            .output()
        else {
            continue;
        };
        let version = String::from_utf8_lossy(&out.stdout);
        let major: u32 = version
            .split('.')
            .next()
            .and_then(|m| m.trim().parse().ok())
            .unwrap_or(0);
        // Clients before 23 build with BuildKit themselves when DOCKER_BUILDKIT=1.
        if (18..23).contains(&major) {
            return Ok(PathBuf::from(candidate));
        }
    }
    Err(
        "a docker client that builds with BuildKit: the buildx plugin, or Debian's docker.io \
         client (apt-get install docker.io)"
            .into(),
    )
}

/// Builds `mneme:test` once per test run (see the module's doc for what is substituted).
pub fn image() -> &'static Result<(), String> {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    BUILT.get_or_init(build_image)
}

fn build_image() -> Result<(), String> {
    let client = buildkit_client()?;
    let repo = repo();
    if docker_output(&["image", "inspect", BASE_IMAGE])
        .status
        .success()
        .then_some(())
        .is_none()
    {
        let made = Command::new("bash")
            .arg(repo.join("scripts/docker-test-base"))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("scripts/docker-test-base: {e}"))?;
        if !made.status.success() {
            return Err(format!(
                "the base image {BASE_IMAGE} (scripts/docker-test-base: {})",
                String::from_utf8_lossy(&made.stderr).trim()
            ));
        }
    }
    // The host's binary, as the `build` stage would leave it.
    let context = tempfile::tempdir().map_err(|e| e.to_string())?;
    let binary = context.path().join("mneme");
    let stripped = Command::new("strip")
        .args(["--strip-debug", "-o"])
        .arg(&binary)
        .arg(env!("CARGO_BIN_EXE_mneme"))
        .status()
        .is_ok_and(|s| s.success());
    if !stripped {
        std::fs::copy(env!("CARGO_BIN_EXE_mneme"), &binary).map_err(|e| e.to_string())?;
    }
    std::fs::write(
        context.path().join("Dockerfile"),
        "FROM scratch\nCOPY mneme /src/target/release/mneme\n",
    )
    .map_err(|e| e.to_string())?;
    run_build(&client, context.path(), &["-t", BINARY_IMAGE])?;
    // The repository's Dockerfile, as `docker build -t mneme .`, with the two substitutes.
    let base = format!("BASE_IMAGE={BASE_IMAGE}");
    let stage = format!("BINARY_STAGE={BINARY_IMAGE}");
    run_build(
        &client,
        &repo,
        &["-t", IMAGE, "--build-arg", &base, "--build-arg", &stage],
    )
}

fn run_build(client: &Path, context: &Path, args: &[&str]) -> Result<(), String> {
    let out = Command::new(client)
        .arg("build")
        .args(args)
        .arg(context)
        .env("DOCKER_BUILDKIT", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", client.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "docker build {} failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A name no other test run uses.
pub fn unique(prefix: &str) -> String {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{prefix}-{}-{n}", std::process::id())
}

/// Removes containers and volumes when dropped, whatever the test did.
#[derive(Default)]
pub struct Cleanup {
    pub containers: Vec<String>,
    pub volumes: Vec<String>,
    pub compose: Vec<(PathBuf, String)>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        for (file, project) in &self.compose {
            let _ = Command::new("docker-compose")
                .arg("-f")
                .arg(file)
                .args(["-p", project, "down", "-v", "--timeout", "5"])
                .stdin(Stdio::null())
                .output();
        }
        for c in &self.containers {
            let _ = docker_output(&["rm", "-f", c]);
        }
        for v in &self.volumes {
            let _ = docker_output(&["volume", "rm", "-f", v]);
        }
    }
}

/// Waits until the container's health check says `healthy`; panics with its logs otherwise.
pub async fn wait_healthy(container: &str, within: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let status = docker(&["inspect", "-f", "{{.State.Health.Status}}", container]);
        if status == "healthy" {
            return start.elapsed();
        }
        if start.elapsed() > within {
            let logs = docker_output(&["logs", container]);
            let health = docker_output(&["inspect", "-f", "{{json .State.Health}}", container]);
            panic!(
                "{container} is `{status}` after {within:?}\n--- health\n{}\n--- logs\n{}{}",
                String::from_utf8_lossy(&health.stdout),
                String::from_utf8_lossy(&logs.stdout),
                String::from_utf8_lossy(&logs.stderr)
            );
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// The container's logs (stdout and stderr together).
pub fn logs(container: &str) -> String {
    let out = docker_output(&["logs", container]);
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
