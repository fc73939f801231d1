//! Splitting long replies for platforms with a message-size limit.
//!
//! Chunks break at paragraph boundaries when one falls in the second half of a chunk, else at
//! line boundaries, else between words, else between characters — never inside a character.
//! A code fence open at a break is closed at the end of the chunk and reopened, with the same
//! info string, at the start of the next, so every chunk renders on its own.
//!
//! It cannot fail, whatever the model writes: every chunk measures at most the limit (its
//! closing fence counted), no chunk is empty, and every character of the text is kept. The
//! arithmetic saturates; each step either adds text to a chunk or finishes a chunk holding
//! text, so the loop ends. A fence line too long to be reopened comfortably (over a quarter
//! of the limit, i.e. an absurd info string) is treated as a bare fence followed by its info
//! text as the first line of code, so a reopened fence always leaves room for content.

use std::collections::VecDeque;

/// Telegram counts message length in UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Discord counts Unicode scalar values.
pub fn char_len(s: &str) -> usize {
    s.chars().count()
}

const FENCE: &str = "```";
/// What closing a chunk inside a fence may add: a newline and the fence.
const CLOSE: &str = "\n```";
/// Below this, a chunk could not hold a reopened fence, its close and some text.
const MIN_LIMIT: usize = 16;

use crate::base::markdown::{holds_text, is_fence};

/// Splits `text` into chunks of at most `limit` as measured by `len`.
pub fn split_message(text: &str, limit: usize, len: fn(&str) -> usize) -> Vec<String> {
    let limit = limit.max(MIN_LIMIT);
    let close_len = len(CLOSE);
    let mut chunks = Vec::new();
    let mut cur = String::new();
    // The bytes at the start of `cur` that reopen a fence the previous chunk closed.
    let mut header_len = 0;
    // The fence line opening the code block `cur` is inside, if any.
    let mut fence: Option<String> = None;
    // Byte offset in `cur` just after the last blank line outside any fence, and the pieces
    // placed after it (they go round again when the chunk ends there).
    let mut para_break: Option<usize> = None;
    let mut after_break: Vec<(String, bool)> = Vec::new();
    // Lines still to place; `true` marks the rest of a cut line, which is never a fence line
    // even when it begins with backticks.
    let mut queue: VecDeque<(String, bool)> = lines(text, limit / 4, len).collect();

    while let Some((line, continued)) = queue.pop_front() {
        let fence_after = if !continued && is_fence(&line) {
            match &fence {
                Some(_) => None,
                None => Some(line.trim_end().to_string()),
            }
        } else {
            fence.clone()
        };
        let closing = if fence_after.is_some() { close_len } else { 0 };
        if len(&cur) + len(&line) + closing <= limit {
            fence = fence_after;
            cur.push_str(&line);
            if fence.is_none() && line.trim().is_empty() {
                para_break = Some(cur.len());
                after_break.clear();
            } else {
                after_break.push((line, continued));
            }
            continue;
        }
        // `line` does not fit.
        if cur.len() > header_len {
            // Finish this chunk; the line goes round again into the next one.
            if let Some(at) = para_break.filter(|&at| at * 2 >= cur.len() && at < cur.len()) {
                // Break at the paragraph (outside any fence by construction); what follows it
                // goes round again, recomputing the fence state.
                cur.truncate(at);
                queue.push_front((line, continued));
                for piece in after_break.drain(..).rev() {
                    queue.push_front(piece);
                }
                fence = None;
            } else {
                queue.push_front((line, continued));
            }
        } else {
            // Not even a fresh chunk holds it. Fence lines are short (see `lines`), so this
            // is text and leaves the fence state alone: cut it to the room there is.
            let room = limit.saturating_sub(len(&cur) + closing);
            let (head, tail) = cut(&line, room, len);
            cur.push_str(head);
            if !tail.is_empty() {
                queue.push_front((tail.to_string(), true));
            }
        }
        if fence.is_some() {
            close_fence(&mut cur);
        }
        push_chunk(&mut chunks, &cur, header_len);
        cur.clear();
        header_len = 0;
        para_break = None;
        after_break.clear();
        if let Some(open) = &fence {
            cur.push_str(open);
            cur.push('\n');
            header_len = cur.len();
        }
    }
    // A reply that ends inside a code block gets its fence closed (the room was kept).
    if fence.is_some() {
        close_fence(&mut cur);
    }
    push_chunk(&mut chunks, &cur, header_len);
    chunks
}

fn close_fence(cur: &mut String) {
    if !cur.ends_with('\n') {
        cur.push('\n');
    }
    cur.push_str(FENCE);
}

/// The text's lines, each with its newline, flagged `false` (a line of its own). A fence line
/// longer than `max_fence` becomes the fence alone and, flagged `true` (never a fence), its
/// info text as the next line.
fn lines(
    text: &str,
    max_fence: usize,
    len: fn(&str) -> usize,
) -> impl Iterator<Item = (String, bool)> {
    text.split_inclusive('\n').flat_map(move |line| {
        if is_fence(line) && len(line) > max_fence {
            let indent = line.len() - line.trim_start().len();
            let ticks = line[indent..].len() - line[indent..].trim_start_matches('`').len();
            let (fence, info) = line.split_at(indent + ticks);
            vec![(format!("{fence}\n"), false), (info.to_string(), true)]
        } else {
            vec![(line.to_string(), false)]
        }
    })
}

/// Keeps a chunk unless it holds no text: blank, or only fences — a reopened fence and its
/// close, or a block's opening fence closed at once because the line after it did not fit
/// (an empty code block posted before the text; the next chunk reopens the fence).
fn push_chunk(chunks: &mut Vec<String>, chunk: &str, header_len: usize) {
    let trimmed = chunk.trim_matches('\n');
    if trimmed.trim().is_empty() {
        return;
    }
    let body = &chunk[header_len.min(chunk.len())..];
    if !holds_text(body) {
        return;
    }
    chunks.push(trimmed.to_string());
}

/// Cuts `line` so the head measures at most `room`, preferring the last space; the head holds
/// at least one character, so every cut makes progress.
fn cut(line: &str, room: usize, len: fn(&str) -> usize) -> (&str, &str) {
    let mut end = 0;
    let mut used = 0;
    let mut buf = [0u8; 4];
    for (i, c) in line.char_indices() {
        // Both measures add up character by character.
        used += len(c.encode_utf8(&mut buf));
        if used > room {
            break;
        }
        end = i + c.len_utf8();
    }
    if end == 0 {
        // Unreachable with `MIN_LIMIT` (the room is at least a few characters); kept so that
        // a cut always makes progress.
        end = line.chars().next().map_or(0, char::len_utf8);
    }
    if end < line.len()
        && let Some(space) = line[..end].rfind(' ').filter(|&s| s * 2 >= end)
    {
        end = space + 1;
    }
    line.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every chunk fits, none is blank, each one's fences are balanced.
    fn check(chunks: &[String], limit: usize, len: fn(&str) -> usize) {
        for c in chunks {
            assert!(len(c) <= limit, "chunk of {} > {limit}:\n{c}", len(c));
            assert!(!c.trim().is_empty(), "a blank chunk");
            let fences = c.lines().filter(|l| is_fence(l)).count();
            assert_eq!(fences % 2, 0, "unbalanced fences in:\n{c}");
        }
    }

    /// Every character of the text, fence lines and whitespace aside, comes out in order.
    /// (An overlong fence line's info text becomes a line of code, see `lines`, so it counts
    /// as text on the input side.)
    fn nothing_lost(text: &str, chunks: &[String], limit: usize, len: fn(&str) -> usize) {
        let out: String = chunks
            .iter()
            .flat_map(|c| c.lines())
            .filter(|l| !is_fence(l))
            .flat_map(|l| l.chars())
            .filter(|c| !c.is_whitespace())
            .collect();
        let input: String = lines(text, limit.max(MIN_LIMIT) / 4, len)
            .filter(|(l, continued)| *continued || !is_fence(l))
            .flat_map(|(l, _)| l.chars().collect::<Vec<_>>())
            .filter(|c| !c.is_whitespace())
            .collect();
        assert_eq!(out, input);
    }

    #[test]
    fn short_text_is_one_chunk() {
        assert_eq!(
            split_message("hello\nworld", 100, char_len),
            ["hello\nworld"]
        );
        assert!(split_message("", 100, char_len).is_empty());
        assert!(split_message("\n\n  \n", 100, char_len).is_empty());
        assert!(split_message("```\n```", 100, char_len).is_empty());
    }

    #[test]
    fn prefers_paragraph_breaks() {
        let text = format!(
            "{}\n\n{}\n{}",
            "a".repeat(60),
            "b".repeat(30),
            "c".repeat(30)
        );
        let chunks = split_message(&text, 100, char_len);
        assert_eq!(
            chunks,
            [
                "a".repeat(60),
                format!("{}\n{}", "b".repeat(30), "c".repeat(30))
            ]
        );
    }

    #[test]
    fn code_fences_are_closed_and_reopened() {
        let code: String = (0..40).map(|i| format!("let x{i} = {i};\n")).collect();
        let text = format!("Here is code:\n\n```rust\n{code}```\n\nDone.");
        let chunks = split_message(&text, 120, char_len);
        assert!(chunks.len() > 3);
        check(&chunks, 120, char_len);
        nothing_lost(&text, &chunks, 120, char_len);
        for c in &chunks[1..chunks.len() - 1] {
            assert!(
                c.starts_with("```rust\n"),
                "reopened with its language:\n{c}"
            );
        }
    }

    #[test]
    fn long_lines_split_between_words_and_never_inside_a_character() {
        let text = "word ".repeat(100);
        let chunks = split_message(&text, 50, char_len);
        check(&chunks, 50, char_len);
        assert_eq!(chunks.concat().split_whitespace().count(), 100);

        // emoji are 2 UTF-16 units: a limit counted in units is never exceeded or split mid-pair
        let emoji = "😀".repeat(100);
        let chunks = split_message(&emoji, 31, utf16_len);
        check(&chunks, 31, utf16_len);
        assert_eq!(chunks.concat(), emoji);
    }

    #[test]
    fn long_single_line_inside_a_fence() {
        let text = format!("```\n{}\n```", "x".repeat(300));
        let chunks = split_message(&text, 100, char_len);
        check(&chunks, 100, char_len);
        assert_eq!(
            chunks.iter().map(|c| c.matches('x').count()).sum::<usize>(),
            300
        );
    }

    /// A code block whose first line is longer than a message: no chunk is an empty code
    /// block posted before the text (it was, at Discord's and Telegram's limits alike).
    #[test]
    fn no_chunk_is_an_empty_code_block() {
        for (limit, len) in [(4000, utf16_len as fn(&str) -> usize), (2000, char_len)] {
            for text in [
                format!("```\n{}\n```", "x".repeat(limit + 10)),
                format!("Here:\n```python\n{}\nprint(1)\n```", "y".repeat(2 * limit)),
            ] {
                let chunks = split_message(&text, limit, len);
                check(&chunks, limit, len);
                nothing_lost(&text, &chunks, limit, len);
                for c in &chunks {
                    assert!(holds_text(c), "a chunk with no text: {c:?}");
                }
            }
        }
    }

    /// The crash of issue 13: a fence line just under the limit (and every length around it),
    /// at Telegram's and Discord's limits, alone or after text, with code after it.
    #[test]
    fn fence_lines_of_every_length_near_the_limit() {
        for (limit, len) in [(4000, utf16_len as fn(&str) -> usize), (2000, char_len)] {
            for fence_len in limit - 12..=limit + 4 {
                let fence = format!("```{}", "p".repeat(fence_len - 3));
                for text in [
                    format!("{fence}\nlet x = 1;\n```\nafter"),
                    format!("intro\n{fence}\ncode\n```"),
                    format!("{}\n{fence}\n{}", "a".repeat(limit - 10), "b".repeat(50)),
                ] {
                    let chunks = split_message(&text, limit, len);
                    check(&chunks, limit, len);
                    nothing_lost(&text, &chunks, limit, len);
                }
            }
        }
    }

    /// Issue 13's Discord case: the closing fence counted when a fence opens near the end.
    #[test]
    fn a_fence_opening_near_the_end_leaves_room_for_its_close() {
        for pad in 1980..2000 {
            let text = format!("{}\n```\ncode\n```", "a".repeat(pad));
            let chunks = split_message(&text, 2000, char_len);
            check(&chunks, 2000, char_len);
            nothing_lost(&text, &chunks, 2000, char_len);
        }
    }

    /// Pieces of replies: words, CJK, emoji, blank lines, fences with and without a language,
    /// very long lines and fence lines of lengths near the limit.
    fn piece(limit: usize) -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z]{1,12} ".prop_map(String::from),
            2 => Just("\n".to_string()),
            1 => Just("\n\n".to_string()),
            1 => Just("你好世界，这是一段中文。".to_string()),
            1 => Just("😀👍🏽 ".to_string()),
            1 => Just("\n```\n".to_string()),
            1 => Just("\n```rust\n".to_string()),
            1 => (0..limit + 8).prop_map(|n| format!("\n```{}\n", "i".repeat(n))),
            1 => (limit / 2..limit * 2).prop_map(|n| "x".repeat(n)),
            1 => (limit / 2..limit * 2).prop_map(|n| "汉".repeat(n)),
        ]
    }

    fn reply(limit: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(piece(limit), 0..60).prop_map(|p| p.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn any_reply_splits_within_the_limit_keeping_every_character(
            limit in 16usize..200,
            text in reply(200),
            utf16 in any::<bool>(),
        ) {
            let len = if utf16 { utf16_len as fn(&str) -> usize } else { char_len };
            let chunks = split_message(&text, limit, len);
            check(&chunks, limit, len);
            nothing_lost(&text, &chunks, limit, len);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn platform_limits_hold_for_long_replies(text in reply(4000)) {
            for (limit, len) in [(4000, utf16_len as fn(&str) -> usize), (2000, char_len)] {
                let chunks = split_message(&text, limit, len);
                check(&chunks, limit, len);
                nothing_lost(&text, &chunks, limit, len);
            }
        }
    }
}
