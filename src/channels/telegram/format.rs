//! Markdown from the model → Telegram HTML. Everything is escaped; only code blocks, inline
//! code, bold and http(s) links become tags. If Telegram still rejects the entities, the
//! sender falls back to plain text.

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Converts one chunk (fences balanced, as `split_message` makes them) to Telegram HTML.
pub fn to_html(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 32);
    let mut in_code = false;
    for line in markdown.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if in_code {
                out.push_str("</code></pre>\n");
            } else {
                let lang: String = info
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '_' | '#'))
                    .collect();
                if lang.is_empty() {
                    out.push_str("<pre><code>");
                } else {
                    out.push_str(&format!("<pre><code class=\"language-{lang}\">"));
                }
            }
            in_code = !in_code;
            continue;
        }
        if in_code {
            escape(line, &mut out);
        } else {
            inline(line, &mut out);
        }
    }
    if in_code {
        out.push_str("</code></pre>");
    }
    // a closing tag right before the end should not leave a trailing newline
    out.trim_end_matches('\n').to_string()
}

/// Inline code, **bold** and [text](http…) within one line.
fn inline(line: &str, out: &mut String) {
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`')
            && let Some(end) = after.find('`')
        {
            out.push_str("<code>");
            escape(&after[..end], out);
            out.push_str("</code>");
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("**")
            && let Some(end) = after.find("**").filter(|&e| e > 0)
        {
            out.push_str("<b>");
            escape(&after[..end], out);
            out.push_str("</b>");
            rest = &after[end + 2..];
            continue;
        }
        if let Some(after) = rest.strip_prefix('[')
            && let Some((text, url, consumed)) = link(after)
        {
            out.push_str("<a href=\"");
            escape(url, out);
            out.push_str("\">");
            escape(text, out);
            out.push_str("</a>");
            rest = &after[consumed..];
            continue;
        }
        let c = rest.chars().next().expect("rest is not empty");
        escape(&rest[..c.len_utf8()], out);
        rest = &rest[c.len_utf8()..];
    }
}

/// `text](url)` after a `[`: the text, the URL and the bytes consumed.
fn link(after: &str) -> Option<(&str, &str, usize)> {
    let close = after.find("](")?;
    let text = &after[..close];
    let url_start = close + 2;
    let url_len = after[url_start..].find(')')?;
    let url = &after[url_start..url_start + url_len];
    let ok = (url.starts_with("https://") || url.starts_with("http://"))
        && !url.contains(char::is_whitespace);
    (ok && !text.is_empty() && !text.contains('\n')).then_some((text, url, url_start + url_len + 1))
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn escapes_everything_else() {
        assert_eq!(to_html("a < b && c > d"), "a &lt; b &amp;&amp; c &gt; d");
        assert_eq!(
            to_html("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
    }

    #[test]
    fn code_bold_links() {
        assert_eq!(
            to_html("use `Vec<u8>` **now**"),
            "use <code>Vec&lt;u8&gt;</code> <b>now</b>"
        );
        assert_eq!(
            to_html("```rust\nlet a = 1 < 2;\n```"),
            "<pre><code class=\"language-rust\">let a = 1 &lt; 2;\n</code></pre>"
        );
        assert_eq!(
            to_html("[docs](https://x.org/a?b=1&c=2)"),
            "<a href=\"https://x.org/a?b=1&amp;c=2\">docs</a>"
        );
        assert_eq!(
            to_html("[bad](javascript:alert(1))"),
            "[bad](javascript:alert(1))"
        );
    }

    #[test]
    fn unbalanced_markers_stay_text() {
        assert_eq!(to_html("a ` b ** c"), "a ` b ** c");
        assert_eq!(to_html("```\nunclosed"), "<pre><code>unclosed</code></pre>");
    }
}
