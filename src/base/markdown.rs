//! What a reply's Markdown holds, as the channels send it.

/// Whether `line` is a code fence (```` ``` ````, with or without an info string).
pub fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

/// Whether `text` has anything to show besides blank lines and code fences: a reply without
/// (an empty code block) is sent as no message at all (`channels::split`).
pub fn holds_text(text: &str) -> bool {
    text.lines().any(|l| !l.trim().is_empty() && !is_fence(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_code_block_holds_no_text() {
        assert!(!holds_text("```rust\n\n```"));
        assert!(!holds_text(" \n```\n```\n"));
        assert!(holds_text("```\nx\n```"));
        assert!(holds_text("x"));
    }
}
