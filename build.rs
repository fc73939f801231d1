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
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=build.rs");
    if packed_relocations_load() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
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
    let mut numbers = version
        .unwrap_or("")
        .split('.')
        .map(|n| n.parse::<u32>().unwrap_or(0));
    (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (2, 36)
}
