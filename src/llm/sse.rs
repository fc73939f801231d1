//! A streamed answer's bytes handed to the event-stream parser a whole line at a time.
//!
//! `eventsource-stream` parses the line in progress again from its start on every chunk that
//! arrives (its issue #11), so one large event sent in many small chunks costs the square of
//! its size: a 4 MiB `data:` line took 45 s of a core in a debug build, and a 20 MB one held
//! its chat for minutes. Here the chunks of a line are gathered first (each byte looked at
//! once) and the parser gets whole lines, which it reads once. A line, and the whole answer,
//! have a size limit: past it the answer is unreadable, not a reason to read for ever.

use futures_util::{Stream, StreamExt};

/// The longest line of an event stream read (a model's event is a few KB; the answer is cut
/// at 32,000 characters anyway).
pub const MAX_LINE_BYTES: usize = 4 << 20;
/// The most bytes one streamed answer is read for.
pub const MAX_STREAM_BYTES: usize = 64 << 20;

/// What broke the byte stream: the transport, or a size limit.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    #[error("{0}")]
    Transport(#[from] reqwest::Error),
    #[error("a line of the event stream is longer than {} MiB", MAX_LINE_BYTES >> 20)]
    LineTooLong,
    #[error("the event stream is longer than {} MiB", MAX_STREAM_BYTES >> 20)]
    TooLong,
}

/// `body`'s bytes, re-cut so that each item ends at a line break (`\n` or `\r`) but the last.
pub fn whole_lines<S, B, E>(body: S) -> impl Stream<Item = Result<Vec<u8>, Fault>>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
    Fault: From<E>,
{
    async_stream::try_stream! {
        futures_util::pin_mut!(body);
        let mut pending: Vec<u8> = Vec::new();
        let mut total = 0usize;
        while let Some(chunk) = body.next().await {
            let chunk = chunk?;
            let chunk = chunk.as_ref();
            total += chunk.len();
            if total > MAX_STREAM_BYTES {
                Err(Fault::TooLong)?;
            }
            match chunk.iter().rposition(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    pending.extend_from_slice(&chunk[..=end]);
                    let rest = chunk[end + 1..].to_vec();
                    yield std::mem::replace(&mut pending, rest);
                }
                None => pending.extend_from_slice(chunk),
            }
            if pending.len() > MAX_LINE_BYTES {
                Err(Fault::LineTooLong)?;
            }
        }
        if !pending.is_empty() {
            yield pending;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eventsource_stream::Eventsource;

    fn cut(text: &[u8], size: usize) -> Vec<Result<Vec<u8>, reqwest::Error>> {
        text.chunks(size).map(|c| Ok(c.to_vec())).collect()
    }

    async fn events(chunks: Vec<Result<Vec<u8>, reqwest::Error>>) -> Vec<String> {
        whole_lines(futures_util::stream::iter(chunks))
            .eventsource()
            .map(|e| e.map(|e| e.data).map_err(|e| e.to_string()))
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| format!("error: {e}")))
            .collect()
    }

    /// The same events whatever the cut, with every line ending (`\n`, `\r\n`, `\r`) split
    /// anywhere, including between `\r` and `\n`.
    #[tokio::test]
    async fn events_are_the_same_however_the_bytes_are_cut() {
        let text = b"data: one\n\ndata: two\r\ndata: lines\r\n\r\n: comment\rdata: three\r\rdata: four\n\n";
        for size in 1..text.len() {
            assert_eq!(
                events(cut(text, size)).await,
                ["one", "two\nlines", "three", "four"],
                "cut every {size} bytes"
            );
        }
    }

    /// One large event sent in small pieces is read whole, each byte looked at once (the
    /// parser alone took seconds for this; no timing is asserted here: `whole_lines` hands it
    /// one item).
    #[tokio::test]
    async fn a_large_event_in_small_pieces_reaches_the_parser_as_one_line() {
        let big = "x".repeat(2 << 20);
        let text = format!("data: {big}\n\n");
        let chunks = cut(text.as_bytes(), 1460);
        let lines: Vec<Vec<u8>> = whole_lines(futures_util::stream::iter(chunks))
            .map(Result::unwrap)
            .collect()
            .await;
        assert_eq!(
            lines.len(),
            1,
            "one item: the line and the blank line after it"
        );
        assert_eq!(lines[0], text.as_bytes());
    }

    #[tokio::test]
    async fn a_line_or_a_stream_past_its_limit_is_an_error() {
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let got = events(cut(&long, 64 << 10)).await;
        assert_eq!(
            got.last().map(String::as_str),
            Some("error: Transport error: a line of the event stream is longer than 4 MiB")
        );
        let event = format!("data: {}\n\n", "x".repeat(1 << 20));
        let many = event.repeat(MAX_STREAM_BYTES / event.len() + 1);
        let got = events(cut(many.as_bytes(), 1 << 20)).await;
        assert_eq!(
            got.last().map(String::as_str),
            Some("error: Transport error: the event stream is longer than 64 MiB")
        );
    }
}
