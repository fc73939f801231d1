//! How the CLI prints a memory: one line for people, one JSON object per line with `--json`.

use std::io::Write;

use crate::base::MemoryRow;
use crate::memories::json::{MemoryJson, rfc3339};

/// One memory, as a line (with its score, when it was found by a search) or as JSON.
pub fn print_memory(
    out: &mut impl Write,
    m: &MemoryRow,
    score: Option<f64>,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&MemoryJson::from_row(m, score))?
        )?;
        return Ok(());
    }
    let score = score.map(|s| format!("score {s:.3}  ")).unwrap_or_default();
    let archived = if m.archived { "  [archived]" } else { "" };
    writeln!(
        out,
        "#{:<6} {score}{:<20} {:<9} conf {:.2}  {}  ({}, seen {}){archived}",
        m.id,
        m.chat_name(),
        m.category,
        m.confidence,
        m.content,
        serde_json::to_value(m.source)?.as_str().unwrap_or_default(),
        rfc3339(m.last_seen_at),
    )?;
    Ok(())
}
