//! File memory: `AGENTS.md`, one global and one per chat, under `<data_dir>/runtime/groups/`.
//!
//! Chat ids come from the outside world, so every path component is encoded: anything but
//! ASCII letters, digits, `-`, `_` and `.` becomes `%XX`, and a component made only of dots
//! is refused. No chat id can name a path outside `groups/`.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::base::ChatKey;

/// Largest AGENTS.md the model may write (it is injected into every prompt of its scope).
pub const MAX_FILE_BYTES: usize = 32 * 1024;
const FILE_NAME: &str = "AGENTS.md";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileScope<'a> {
    Global,
    Chat(&'a ChatKey),
}

#[derive(Debug, thiserror::Error)]
pub enum FileMemoryError {
    #[error("`{0}` cannot be used as a folder name")]
    BadComponent(String),
    #[error(
        "memory is {size} bytes; the limit is {MAX_FILE_BYTES} bytes — shorten it and write again"
    )]
    TooLarge { size: usize },
    #[error("memory file {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Reads and writes AGENTS.md files below one root folder.
#[derive(Debug, Clone)]
pub struct MemoryFiles {
    groups: PathBuf,
}

impl MemoryFiles {
    /// `runtime_dir` is `<data_dir>/runtime`.
    pub fn new(runtime_dir: &Path) -> Self {
        Self {
            groups: runtime_dir.join("groups"),
        }
    }

    pub fn path(&self, scope: &FileScope<'_>) -> Result<PathBuf, FileMemoryError> {
        Ok(match scope {
            FileScope::Global => self.groups.join(FILE_NAME),
            FileScope::Chat(key) => self
                .groups
                .join(encode_component(&key.channel)?)
                .join(encode_component(&key.external_id)?)
                .join(FILE_NAME),
        })
    }

    /// The file's text; empty when it does not exist yet.
    pub fn read(&self, scope: &FileScope<'_>) -> Result<String, FileMemoryError> {
        let path = self.path(scope)?;
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
            Err(source) => Err(FileMemoryError::Io { path, source }),
        }
    }

    /// Replaces the file atomically: a reader sees the old text or the new, never half.
    pub fn write(&self, scope: &FileScope<'_>, content: &str) -> Result<PathBuf, FileMemoryError> {
        if content.len() > MAX_FILE_BYTES {
            return Err(FileMemoryError::TooLarge {
                size: content.len(),
            });
        }
        let path = self.path(scope)?;
        let dir = path.parent().expect("memory path has a parent");
        let io = |source| FileMemoryError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        replace_file(&path, content.as_bytes()).map_err(io)?;
        Ok(path)
    }
}

/// Replaces the file at `path` (whose folder exists) atomically: written to a temporary file
/// beside it, synced, then renamed over it, so a reader sees the old content or the new,
/// never half.
pub fn replace_file(path: &Path, content: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(content)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Makes an arbitrary id safe as one path component.
pub fn encode_component(raw: &str) -> Result<String, FileMemoryError> {
    if raw.is_empty() || raw.len() > 256 || raw.chars().all(|c| c == '.') {
        return Err(FileMemoryError::BadComponent(
            raw.chars().take(64).collect(),
        ));
    }
    let mut out = String::with_capacity(raw.len());
    for b in raw.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_chat_ids_stay_inside_groups() {
        let dir = tempfile::tempdir().unwrap();
        let files = MemoryFiles::new(dir.path());
        let groups = dir.path().join("groups");
        for id in [
            "../../etc",
            "..\\..\\windows",
            "/etc/passwd",
            "a/../../b",
            "%2e%2e",
            "~root",
            "名前",
            "a\0b",
        ] {
            let key = ChatKey::new("web", id);
            let path = files.path(&FileScope::Chat(&key)).unwrap();
            assert!(path.starts_with(&groups), "{id} → {}", path.display());
            let rel = path.strip_prefix(&groups).unwrap();
            assert_eq!(rel.components().count(), 3, "{id} → {}", rel.display());
            assert!(
                rel.components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
            );
        }
        for id in ["..", ".", ""] {
            let key = ChatKey::new("web", id);
            assert!(files.path(&FileScope::Chat(&key)).is_err(), "{id:?}");
        }
    }

    #[test]
    fn write_then_read_round_trips_and_caps_size() {
        let dir = tempfile::tempdir().unwrap();
        let files = MemoryFiles::new(dir.path());
        let key = ChatKey::new("telegram", "-100123");
        let chat = FileScope::Chat(&key);
        assert_eq!(files.read(&chat).unwrap(), "");
        let path = files.write(&chat, "# notes\nlikes tea\n").unwrap();
        assert!(path.ends_with("groups/telegram/-100123/AGENTS.md"));
        assert_eq!(files.read(&chat).unwrap(), "# notes\nlikes tea\n");
        files.write(&FileScope::Global, "global").unwrap();
        assert_eq!(files.read(&FileScope::Global).unwrap(), "global");
        let err = files
            .write(&chat, &"x".repeat(MAX_FILE_BYTES + 1))
            .unwrap_err();
        assert!(matches!(err, FileMemoryError::TooLarge { .. }));
        assert_eq!(
            files.read(&chat).unwrap(),
            "# notes\nlikes tea\n",
            "a refused write changes nothing"
        );
    }
}
