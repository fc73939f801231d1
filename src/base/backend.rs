//! Which database a `database_url` names.

/// Which database a `database_url` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend of `url`: `postgres://` / `postgresql://` or SQLite (`sqlite:…`; whether
    /// the URL is one this build opens is `config::validate`'s to say).
    pub fn of_url(url: &str) -> Self {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Self::Postgres
        } else {
            Self::Sqlite
        }
    }
}
