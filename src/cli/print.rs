//! How the CLI prints a memory: one line for people, one JSON object per line with `--json`.

use std::io::Write;

use crate::base::MemoryRow;
use crate::base::visible::visible;
use crate::memories::json::{MemoryJson, rfc3339};

/// A terminal writer that shows control characters (a chat message's ESC, BEL, DEL…) as `�`
/// instead of passing them on: the sources `mneme memory show` quotes are what people wrote,
/// and an escape sequence in them could rewrite what the operator sees. Newlines and tabs
/// pass. JSON output is unaffected in practice: serde_json escapes C0 characters, and memory
/// text never holds control characters (the gate leaves them out).
pub struct Visible<W: Write>(pub W);

impl<W: Write> Write for Visible<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let shown = visible(buf);
        self.0.write_all(&shown)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_sent_to_the_terminal() {
        let mut out = Visible(Vec::new());
        write!(
            out,
            "Fal\u{0}con\x1b[31m red\x07 \u{9b}2J and \x7f ok\n\tnext 东京"
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out.0).unwrap(),
            "Fal\u{FFFD}con\u{FFFD}[31m red\u{FFFD} \u{FFFD}2J and \u{FFFD} ok\n\tnext 东京"
        );
    }
}
