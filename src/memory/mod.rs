//! Memory algorithms and file memory. Everything here but `files` is pure: text in, decisions
//! out, unit-tested on its own.

pub mod dedup;
pub mod files;
pub mod identity;
pub mod keywords;
pub mod quality;
pub mod rank;
pub mod remember;
pub mod select;
pub mod text;
pub mod tokens;
pub mod vector;
