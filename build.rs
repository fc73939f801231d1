//! Build settings that are not Rust code.
//!
//! - Rebuilds when a migration is added or changed: `sqlx::migrate!` embeds `migrations/` at
//!   compile time, and cargo does not otherwise know the crate depends on those files.
//! - Packs the executable's relative relocations (`-z pack-relative-relocs`, DT_RELR) where the
//!   C library can load them (glibc 2.36 and later). `mneme` is position-independent, so the
//!   loader writes the address of every pointer in its static data at start; in the classic
//!   format each of those ~67,000 relocations is a 24-byte entry, 1.6 MB that the loader reads
//!   and that then stays resident. Packed, they take a few kilobytes. The address layout and
//!   its randomisation are unchanged.
//! - Lays out the functions a daemon runs side by side (`build/link-order.txt`, written by
//!   `scripts/link-order`), where the linker is the LLD rustc uses by default on x86-64 Linux.
//!   The kernel maps code in 64 kB windows around each page a process touches, so the few
//!   thousand functions a daemon runs, spread over 14 MB of code, kept most of it resident.
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=build.rs");
    let root = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rustc-env=MNEME_RULES={}", rules_fingerprint(&root));
    if packed_relocations_load() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo:rerun-if-changed=build/link-order.txt");
    let order = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default())
        .join("build/link-order.txt");
    if links_with_rust_lld() && order.exists() {
        // Names the list has and this build does not (other code, another compiler) are
        // skipped: a stale list lays out less well, nothing more.
        let order = order.display();
        println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={order}");
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
    // scripts/link-order reads the link map to learn where each function went.
    println!("cargo:rerun-if-env-changed=MNEME_LINK_MAP");
    if let Ok(map) = std::env::var("MNEME_LINK_MAP") {
        println!("cargo:rustc-link-arg-bins=-Wl,-Map={map}");
    }
}

/// The code that decides whether two memories state one fact or one replaces the other.
const RULES_SOURCES: &[&str] = &[
    "src/memory/identity",
    "src/memory/identity.rs",
    "src/memory/dedup.rs",
    "src/memory/text.rs",
    "src/memories/candidates.rs",
    "src/memories/consolidate.rs",
    "src/memories/same_fact.rs",
];

/// A fingerprint of [`RULES_SOURCES`] (each file's path and bytes, FNV-1a: the same on every
/// toolchain, which std's hasher is not): the consolidation pass compares every memory again
/// under rules it has not seen.
fn rules_fingerprint(root: &std::path::Path) -> String {
    let mut files = Vec::new();
    for source in RULES_SOURCES {
        println!("cargo:rerun-if-changed={source}");
        rust_files(&root.join(source), &mut files);
    }
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for file in &files {
        let name = file.strip_prefix(root).unwrap_or(file);
        feed(name.to_string_lossy().as_bytes());
        feed(&[0]);
        feed(&std::fs::read(file).unwrap_or_default());
    }
    format!("{hash:016x}")
}

/// The `.rs` files at `path`, a file or a directory (searched through).
fn rust_files(path: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            rust_files(&entry.path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// Whether the binaries are linked by the LLD that rustc brings: its default for
/// x86_64-unknown-linux-gnu since Rust 1.90, unless a linker (or linker flags) is configured.
fn links_with_rust_lld() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("TARGET") != "x86_64-unknown-linux-gnu"
        || !var("RUSTC_LINKER").is_empty()
        || var("CARGO_ENCODED_RUSTFLAGS").contains("link")
    {
        return false;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("-vV").output() else {
        return false;
    };
    // "release: 1.95.0"
    let text = String::from_utf8_lossy(&out.stdout);
    let release = text.lines().find_map(|l| l.strip_prefix("release: "));
    at_least(release.unwrap_or(""), (1, 90))
}

/// Whether the built program runs on a glibc that loads DT_RELR (2.36+): built for Linux with
/// glibc, on this machine's glibc (not cross-compiled), and that one is recent enough.
fn packed_relocations_load() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux"
        || var("CARGO_CFG_TARGET_ENV") != "gnu"
        || var("HOST") != var("TARGET")
    {
        return false;
    }
    let Ok(out) = Command::new("ldd").arg("--version").output() else {
        return false;
    };
    // "ldd (Debian GLIBC 2.36-9+deb12u14) 2.36": the version is the first line's last word.
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().last());
    at_least(version.unwrap_or(""), (2, 36))
}

/// Whether `version` ("2.36", "1.95.0", "1.96.0-nightly") is `major.minor` or later.
fn at_least(version: &str, (major, minor): (u32, u32)) -> bool {
    let mut numbers = version
        .split(['.', '-'])
        .map(|n| n.parse::<u32>().unwrap_or(0));
    (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (major, minor)
}
