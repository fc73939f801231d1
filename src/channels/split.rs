//! Splitting long replies for platforms with a message-size limit.
//!
//! Chunks break at paragraph boundaries when one falls in the second half of a chunk, else at
//! line boundaries, else between words, else between characters — never inside a character.
//! A code fence open at a break is closed at the end of the chunk and reopened, with the same
//! info string, at the start of the next, so every chunk renders on its own.

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

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with(FENCE)
}

/// Splits `text` into chunks of at most `limit` as measured by `len`.
pub fn split_message(text: &str, limit: usize, len: fn(&str) -> usize) -> Vec<String> {
    // The longest fence line we will ever have to reopen, plus the close, must leave room.
    let limit = limit.max(16);
    let mut chunks = Vec::new();
    let mut cur = String::new();
    // The fence line opening the code block `cur` is inside, if any.
    let mut fence: Option<String> = None;
    // Byte offset in `cur` just after the last blank line outside any fence.
    let mut para_break: Option<usize> = None;
    let mut queue: VecDeque<String> = text.split_inclusive('\n').map(str::to_string).collect();

    while let Some(line) = queue.pop_front() {
        let closing = if fence.is_some() {
            len("\n") + len(FENCE)
        } else {
            0
        };
        if len(&cur) + len(&line) + closing <= limit {
            if is_fence(&line) {
                fence = match fence {
                    Some(_) => None,
                    None => Some(line.trim_end().to_string()),
                };
            } else if fence.is_none() && line.trim().is_empty() {
                para_break = Some(cur.len() + line.len());
            }
            cur.push_str(&line);
            continue;
        }
        // `line` does not fit: finish this chunk.
        let reopen = fence.clone();
        if let Some(at) = para_break.filter(|&at| at * 2 >= cur.len() && at < cur.len()) {
            // Break at the paragraph (outside any fence by construction); the text after it
            // goes round again, recomputing the fence state.
            let rest = cur.split_off(at);
            queue.push_front(line);
            for l in rest.split_inclusive('\n').rev() {
                queue.push_front(l.to_string());
            }
            fence = None;
        } else if cur.trim().is_empty()
            || (reopen.is_some() && cur.trim() == reopen.as_deref().unwrap_or_default())
        {
            // Even an empty chunk cannot hold the line: cut the line itself.
            let room = limit - len(&cur) - closing;
            let (head, tail) = cut(&line, room, len);
            cur.push_str(head);
            queue.push_front(tail.to_string());
        } else {
            queue.push_front(line);
        }
        if fence.is_some() {
            if !cur.ends_with('\n') {
                cur.push('\n');
            }
            cur.push_str(FENCE);
        }
        push_chunk(&mut chunks, &cur);
        cur.clear();
        para_break = None;
        if let Some(open) = &fence {
            cur.push_str(open);
            cur.push('\n');
        }
    }
    push_chunk(&mut chunks, &cur);
    chunks
}

fn push_chunk(chunks: &mut Vec<String>, chunk: &str) {
    let trimmed = chunk.trim_matches('\n');
    if !trimmed.trim().is_empty() {
        chunks.push(trimmed.to_string());
    }
}

/// Cuts `line` so the head measures at most `room` (at least one character), preferring
/// the last space.
fn cut(line: &str, room: usize, len: fn(&str) -> usize) -> (&str, &str) {
    let mut end = 0;
    for (i, c) in line.char_indices() {
        let next = i + c.len_utf8();
        if len(&line[..next]) > room {
            break;
        }
        end = next;
    }
    if end == 0 {
        // Not even one character fits (room is tiny): take one anyway to make progress.
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

    fn check(chunks: &[String], limit: usize, len: fn(&str) -> usize) {
        for c in chunks {
            assert!(len(c) <= limit, "chunk of {} > {limit}:\n{c}", len(c));
            let fences = c.lines().filter(|l| is_fence(l)).count();
            assert_eq!(fences % 2, 0, "unbalanced fences in:\n{c}");
        }
    }

    /// Every non-fence, non-empty line of the input appears, in order, in the output.
    fn nothing_lost(text: &str, chunks: &[String]) {
        let out: Vec<&str> = chunks
            .iter()
            .flat_map(|c| c.lines())
            .filter(|l| !is_fence(l) && !l.trim().is_empty())
            .collect();
        let input: Vec<&str> = text
            .lines()
            .filter(|l| !is_fence(l) && !l.trim().is_empty())
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
        nothing_lost(&text, &chunks);
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
        assert!(
            chunks
                .iter()
                .all(|c| !c.starts_with(' ') || c.trim_start().starts_with("word"))
        );
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
}
